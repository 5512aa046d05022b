import java.net.InetSocketAddress;
import java.util.List;

import org.h2.mvstore.MVStore;

import de.bwaldvogel.mongo.MongoServer;
import de.bwaldvogel.mongo.MongoVersion;
import de.bwaldvogel.mongo.backend.AbstractMongoBackend;
import de.bwaldvogel.mongo.backend.h2.H2Backend;
import de.bwaldvogel.mongo.backend.memory.MemoryBackend;
import de.bwaldvogel.mongo.bson.Document;
import de.bwaldvogel.mongo.wire.message.MongoMessage;

/**
 * Starts mongo-java-server on the given host and port and reports MongoDB 7.0 (wire 21): the library's own main
 * binds only 27017 and reports wire 8, which mongodb (Node) 7.6+ refuses. Backend: in memory, or, with a third
 * argument, H2 on that MVStore file (committed before each reply, so a restart after a kill keeps the data as a
 * real server's journal would). Prints "READY mongodb://host:port" once it accepts connections.
 */
public class MongoTestServer {
    public static void main(String[] args) throws Exception {
        String host = args.length > 0 ? args[0] : "127.0.0.1";
        int port = args.length > 1 ? Integer.parseInt(args[1]) : 0;
        String h2File = args.length > 2 ? args[2] : null;
        AbstractMongoBackend backend;
        if (h2File == null) {
            backend = new MemoryBackend();
        } else {
            backend = new DurableH2Backend(MVStore.open(h2File));
        }
        backend.version(new MongoVersion() {
            @Override public List<Integer> getVersionArray() { return List.of(7, 0, 0); }
            @Override public int getWireVersion() { return 21; }
        });
        MongoServer server = new MongoServer(backend);
        server.bind(new InetSocketAddress(host, port));
        InetSocketAddress bound = server.getLocalAddress();
        System.out.println("READY mongodb://" + bound.getHostString() + ":" + bound.getPort());
        System.out.flush();
        Runtime.getRuntime().addShutdownHook(new Thread(server::shutdownNow));
        Thread.currentThread().join();
    }
}

/** H2 backend that commits the MVStore before answering, so an acknowledged write survives a SIGKILL. */
class DurableH2Backend extends H2Backend {
    DurableH2Backend(MVStore store) {
        super(store);
    }

    @Override
    public Document handleMessage(MongoMessage message) {
        try {
            return super.handleMessage(message);
        } finally {
            commit();
        }
    }
}
