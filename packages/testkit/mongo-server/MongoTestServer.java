import java.net.InetSocketAddress;
import java.util.Collection;
import java.util.List;

import org.h2.mvstore.MVStore;

import de.bwaldvogel.mongo.MongoServer;
import de.bwaldvogel.mongo.MongoVersion;
import de.bwaldvogel.mongo.MongoDatabase;
import de.bwaldvogel.mongo.backend.AbstractMongoBackend;
import de.bwaldvogel.mongo.backend.CollectionOptions;
import de.bwaldvogel.mongo.backend.CursorRegistry;
import de.bwaldvogel.mongo.backend.Index;
import de.bwaldvogel.mongo.backend.QueryResult;
import de.bwaldvogel.mongo.backend.h2.H2Backend;
import de.bwaldvogel.mongo.backend.memory.MemoryBackend;
import de.bwaldvogel.mongo.backend.memory.MemoryCollection;
import de.bwaldvogel.mongo.backend.memory.MemoryDatabase;
import de.bwaldvogel.mongo.bson.Document;
import de.bwaldvogel.mongo.wire.message.MongoMessage;
import de.bwaldvogel.mongo.wire.message.MongoQuery;
import io.netty.channel.Channel;

/**
 * Starts mongo-java-server on the given host and port and reports MongoDB 7.0 (wire 21): the library's own main
 * binds only 27017 and reports wire 8, which mongodb (Node) 7.6+ refuses. Backend: in memory, or, with a third
 * argument, H2 on that MVStore file (committed before each reply, so a restart after a kill keeps the data as a
 * real server's journal would). Prints "READY mongodb://host:port" once it accepts connections.
 *
 * The in-memory backend plans a filter that pins `_id` (a value or `$in` of values) beside other conditions on the
 * `_id` index, as MongoDB does (IdPlannedMemoryCollection); the library uses an index only for a filter of exactly
 * its keys, and scans the whole collection otherwise.
 */
public class MongoTestServer {
    public static void main(String[] args) throws Exception {
        String host = args.length > 0 ? args[0] : "127.0.0.1";
        int port = args.length > 1 ? Integer.parseInt(args[1]) : 0;
        String h2File = args.length > 2 ? args[2] : null;
        AbstractMongoBackend backend;
        if (h2File == null) {
            backend = new IdPlannedMemoryBackend();
        } else {
            // No background auto-commit: only DurableH2Backend's commit after each whole message writes the file.
            backend = new DurableH2Backend(new MVStore.Builder().fileName(h2File).autoCommitDisabled().open());
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

/**
 * H2 backend that commits the MVStore before answering, so an acknowledged write survives a SIGKILL, and never in the
 * middle of a message, so a SIGKILL never leaves half of one: the store's background auto-commit is off (it wrote
 * whatever the maps held every second, e.g. a document without its index entry, which after a restart failed every
 * later read of it with "Expected one element but got zero"), and messages run one at a time, so a commit never
 * takes in another message's unfinished changes.
 */
class DurableH2Backend extends H2Backend {
    DurableH2Backend(MVStore store) {
        super(store);
    }

    @Override
    public synchronized Document handleMessage(MongoMessage message) {
        try {
            return super.handleMessage(message);
        } finally {
            commit();
        }
    }

    @Override
    public synchronized Document handleCommand(Channel channel, String database, String command, Document query) {
        try {
            return super.handleCommand(channel, database, command, query);
        } finally {
            commit();
        }
    }

    @Override
    public synchronized QueryResult handleQuery(MongoQuery query) {
        try {
            return super.handleQuery(query);
        } finally {
            commit();
        }
    }
}

/** MemoryBackend whose collections plan filters that pin `_id` on the `_id` index (IdPlannedMemoryCollection). */
class IdPlannedMemoryBackend extends MemoryBackend {
    @Override
    public MemoryDatabase openOrCreateDatabase(String databaseName) {
        return new IdPlannedMemoryDatabase(databaseName, getCursorRegistry());
    }
}

class IdPlannedMemoryDatabase extends MemoryDatabase {
    IdPlannedMemoryDatabase(String databaseName, CursorRegistry cursorRegistry) {
        super(databaseName, cursorRegistry);
    }

    @Override
    protected MemoryCollection openOrCreateCollection(String collectionName, CollectionOptions options) {
        return new IdPlannedMemoryCollection(this, collectionName, options, cursorRegistry);
    }
}

/**
 * mongo-java-server picks an index only when the filter names exactly the index's keys
 * (AbstractUniqueIndex.canHandle), so `{_id: "a", outbox: {$size: 0}}` scans every document. MongoDB answers such
 * a filter from the `_id` index and checks the other conditions on the documents it finds; so does this collection:
 * the `_id` index gives the candidates for the `_id` condition alone, and the whole filter is matched on each of
 * them, as the library does when an index fits.
 */
class IdPlannedMemoryCollection extends MemoryCollection {
    IdPlannedMemoryCollection(MongoDatabase database, String collectionName, CollectionOptions options,
                              CursorRegistry cursorRegistry) {
        super(database, collectionName, options, cursorRegistry);
    }

    @Override
    protected QueryResult queryDocuments(Document query, Document orderBy, int numberToSkip, int limit, int batchSize,
                                         Document fieldSelector) {
        if (query.size() > 1 && query.containsKey("_id") && pinsValues(query.get("_id"))) {
            Document idQuery = new Document("_id", query.get("_id"));
            for (Index<Integer> index : getIndexes()) {
                // canHandle: an index of exactly the key `_id` (the library's own test).
                if (index.canHandle(idQuery)) {
                    return matchDocuments(query, index.getPositions(idQuery), orderBy, numberToSkip, limit,
                        batchSize, fieldSelector);
                }
            }
        }
        return super.queryDocuments(query, orderBy, numberToSkip, limit, batchSize, fieldSelector);
    }

    /**
     * An `_id` condition that names its values: a string or a number, or a document that is only `{$in: [...]}` of
     * such values (an array, a regular expression or an operator keeps the library's own plan).
     */
    private static boolean pinsValues(Object condition) {
        if (!(condition instanceof Document)) {
            return isPlainValue(condition);
        }
        Document operators = (Document) condition;
        if (operators.size() != 1 || !(operators.get("$in") instanceof Collection<?>)) {
            return false;
        }
        Collection<?> values = (Collection<?>) operators.get("$in");
        return values.stream().allMatch(IdPlannedMemoryCollection::isPlainValue);
    }

    private static boolean isPlainValue(Object value) {
        return value instanceof String || value instanceof Number;
    }
}
