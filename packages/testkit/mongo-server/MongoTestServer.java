import java.net.InetSocketAddress;
import java.util.List;

import de.bwaldvogel.mongo.MongoServer;
import de.bwaldvogel.mongo.MongoVersion;
import de.bwaldvogel.mongo.backend.memory.MemoryBackend;

/**
 * Starts mongo-java-server (in-memory backend) on the given host and port and reports MongoDB 7.0 (wire 21):
 * the library's own main binds only 27017 and reports wire 8, which mongodb (Node) 7.6+ refuses.
 * Prints "READY mongodb://host:port" once it accepts connections.
 */
public class MongoTestServer {
    public static void main(String[] args) throws Exception {
        String host = args.length > 0 ? args[0] : "127.0.0.1";
        int port = args.length > 1 ? Integer.parseInt(args[1]) : 0;
        MemoryBackend backend = new MemoryBackend();
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
