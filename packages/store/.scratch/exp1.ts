import { MongoClient } from 'mongodb';
import { startMongoServer } from '../../testkit/src/servers.js';

const server = await startMongoServer();
console.log('url', server.url);
const client = new MongoClient(server.url, { serverSelectionTimeoutMS: 1500, ignoreUndefined: true });
await client.connect();
const db = client.db('exp1');
const c = db.collection<any>('items');
const name = await c.createIndex({ tenantId: 1, codice: 1 }, { name: 'codice_unique', unique: true });
console.log('index', name);
await c.insertOne({ _id: 't1:a', tenantId: 't1', id: 'a', codice: 'X' });
try { await c.insertOne({ _id: 't1:b', tenantId: 't1', id: 'b', codice: 'X' }); } catch (e: any) { console.log('dup1', e.constructor.name, e.code, JSON.stringify(e.message), e.keyValue, e.errorResponse); }
try { await c.insertOne({ _id: 't1:a', tenantId: 't1', id: 'a', codice: 'Y' }); } catch (e: any) { console.log('dup2', e.constructor.name, e.code, JSON.stringify(e.message)); }
try { await c.findOneAndUpdate({ _id: 't1:zz', tenantId: 't1' }, { $set: { codice: 'X' }, $setOnInsert: { id: 'zz' } }, { upsert: true, returnDocument: 'after' }); } catch (e: any) { console.log('dup3', e.constructor.name, e.code, JSON.stringify(e.message)); }
// upsert with _id in setOnInsert
const r = await c.findOneAndUpdate({ tenantId: 't1', id: 'c' }, { $set: { codice: 'C' }, $setOnInsert: { _id: 't1:c' }, $push: { _outbox: { $each: [{ id: 'm1', subject: 's', body: { a: 1 } }] } }, $min: { _outboxAt: new Date().toISOString() } }, { upsert: true, returnDocument: 'after' });
console.log('upsert', r);
const r2 = await c.findOneAndUpdate({ tenantId: 't1', id: 'c' }, { $push: { _outbox: { $each: [{ id: 'm2', subject: 's', body: 2 }] } }, $min: { _outboxAt: '9999' } }, { returnDocument: 'after' });
console.log('push', JSON.stringify(r2));
await c.updateOne({ _id: 't1:c' }, { $pull: { _outbox: { id: { $in: ['m1'] } } }, $unset: { _outboxLease: '' } });
console.log('pulled', JSON.stringify(await c.findOne({ _id: 't1:c' })));
const r3 = await c.updateOne({ _id: 't1:c', _outbox: { $size: 1 } }, { $unset: { _outbox: '', _outboxAt: '' } });
console.log('cleanup', r3.modifiedCount, JSON.stringify(await c.findOne({ _id: 't1:c' })));
console.log('proj', await c.find({ tenantId: 't1' }, { projection: { _id: 0, tenantId: 0, _outbox: 0 } }).sort({ codice: -1, _id: 1 }).toArray());
// timeoutMS
try { console.log('ping timeoutMS', await db.command({ ping: 1 }, { timeoutMS: 500 })); } catch (e: any) { console.log('pingerr', e); }
const c2 = new MongoClient(server.url, { serverSelectionTimeoutMS: 1500, timeoutMS: 2000 });
try { console.log('find csot', await c2.db('exp1').collection('items').countDocuments({})); } catch (e: any) { console.log('csot err', e); }
// conflict $set id and filter id
try { console.log(await c.findOneAndUpdate({ tenantId: 't1', id: 'd' }, { $setOnInsert: { _id: 't1:d', id: 'd' } }, { upsert: true, returnDocument: 'after' })); } catch (e: any) { console.log('conflict', e.code, e.message); }
try { console.log('elemMatch', await c.find({ tenantId: 't1', _outbox: { $elemMatch: { id: 'm2' } } }).toArray()); } catch (e: any) { console.log(e.message); }
try { console.log('not', await c.find({ tenantId: 't1', codice: { $not: { $in: ['C'] } } }).toArray()); } catch (e: any) { console.log(e.message); }
// pause test
server.pause();
let t = Date.now();
try { await db.command({ ping: 1 }, { timeoutMS: 500 }); } catch (e: any) { console.log('paused ping', Date.now() - t, e.constructor.name, e.message); }
t = Date.now();
try { await c2.db('exp1').collection('items').countDocuments({}); } catch (e: any) { console.log('paused csot', Date.now() - t, e.constructor.name, e.message); }
server.resume();
t = Date.now();
try { console.log('after resume', await db.command({ ping: 1 }, { timeoutMS: 3000 }), Date.now() - t); } catch (e: any) { console.log('after resume err', Date.now() - t, e.constructor.name, e.message); }
await server.kill();
t = Date.now();
try { await c.insertOne({ _id: 'k', tenantId: 't1' }); } catch (e: any) { console.log('killed', Date.now() - t, e.constructor.name, e.message); }
t = Date.now();
try { await c.insertOne({ _id: 'k', tenantId: 't1' }); } catch (e: any) { console.log('killed2', Date.now() - t, e.constructor.name, e.message); }
await server.restart();
t = Date.now();
for (;;) { try { await c.insertOne({ _id: 'k2', tenantId: 't1' }); console.log('after restart ok', Date.now() - t); break; } catch (e: any) { console.log('restart err', Date.now() - t, e.constructor.name, e.message); await new Promise(r => setTimeout(r, 200)); } }
await client.close(); await c2.close();
await server.stop();
