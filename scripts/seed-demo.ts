// `pnpm seed [--tenant demo] [--url http://127.0.0.1:3000]`: gives a running Coperto a room to look at on the
// floor plan (GET /), through the public REST API only: two rooms, tables with geometry (and one not placed
// yet), a few of tonight's bookings and three table combinations. Signs its own administrator token with `pnpm token`'s secret. Run it again: the
// rooms that exist are left as they are.
import { parseArgs } from 'node:util';
import { isValidTenantId, signToken } from '@coperto/auth';
import { localSigningSecret } from './local-signing-secret.js';

const { values } = parseArgs({
  options: {
    tenant: { type: 'string', default: 'demo' },
    url: { type: 'string', default: process.env.COPERTO_URL ?? 'http://127.0.0.1:3000' },
  },
});
const tenantId = values.tenant ?? 'demo';
if (!isValidTenantId(tenantId)) {
  console.error(`Invalid tenant id ${JSON.stringify(tenantId)}: use 1-64 of A-Z a-z 0-9 _ -`);
  process.exit(2);
}
const token = await signToken({
  secret: localSigningSecret(),
  tenantId,
  admin: true,
  subject: 'seed-demo',
  expiresIn: '10m',
  ...(process.env.JWT_ISSUER ? { issuer: process.env.JWT_ISSUER } : {}),
  ...(process.env.JWT_AUDIENCE ? { audience: process.env.JWT_AUDIENCE } : {}),
});

async function call<T>(method: string, path: string, body?: unknown): Promise<T> {
  const response = await fetch(new URL(path, values.url), {
    method,
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const parsed = (await response.json()) as T & { error?: { message: string } };
  if (!response.ok) throw new Error(`${method} ${path}: ${response.status} ${parsed.error?.message}`);
  return parsed;
}

interface Room {
  id: string;
  codice: string;
}
type Table = Record<string, unknown>;

const ROOMS: Array<{ codice: string; descrizione: string; width: number; height: number; tables: Table[] }> =
  [
    {
      codice: 'SALA',
      descrizione: 'Sala principale',
      width: 1000,
      height: 600,
      tables: [
        { name: '1', seats: 2, x: 120, y: 110, shape: 'round', width: 70, height: 70 },
        { name: '2', seats: 2, x: 260, y: 110, shape: 'round', width: 70, height: 70 },
        { name: '3', seats: 4, x: 420, y: 120, width: 100, height: 80 },
        { name: '4', seats: 4, x: 600, y: 120, width: 100, height: 80 },
        { name: '5', seats: 6, x: 820, y: 140, width: 160, height: 80 },
        { name: '6', seats: 4, x: 160, y: 330, width: 90, height: 90, rotation: 45 },
        { name: '7', seats: 8, x: 440, y: 340, shape: 'round', width: 140, height: 140 },
        { name: '8', seats: 4, x: 720, y: 340, width: 100, height: 80 },
        { name: '9', seats: 2, x: 140, y: 510, width: 70, height: 60 },
        { name: '10', seats: 2, x: 300, y: 510, width: 70, height: 60 },
        { name: '11', seats: 10, x: 720, y: 510, width: 260, height: 80 },
        { name: '12', seats: 4 },
      ],
    },
    {
      codice: 'TERRAZZA',
      descrizione: 'Terrazza',
      width: 700,
      height: 350,
      tables: [
        { name: 'T1', seats: 2, x: 100, y: 100, shape: 'round', width: 70, height: 70 },
        { name: 'T2', seats: 2, x: 250, y: 100, shape: 'round', width: 70, height: 70 },
        { name: 'T3', seats: 4, x: 420, y: 110, width: 100, height: 80, rotation: 90 },
        { name: 'T4', seats: 6, x: 350, y: 260, width: 180, height: 80 },
      ],
    },
  ];

const existing = await call<Room[]>('GET', '/api/sale');
const today = new Date().toLocaleDateString('sv-SE');
for (const spec of ROOMS) {
  if (existing.some((r) => r.codice === spec.codice)) {
    console.log(`room ${spec.codice} exists: left as it is`);
    continue;
  }
  const { tables, ...roomBody } = spec;
  const room = await call<Room>('POST', '/api/sale', roomBody);
  const created: Array<{ id: string; name: string }> = [];
  for (const table of tables) created.push(await call('POST', '/api/tavoli', { ...table, roomId: room.id }));
  const statuses: Array<[string, string]> = [
    ['2', 'occupied'],
    ['4', 'open'],
    ['7', 'payment_pending'],
    ['9', 'dirty'],
    ['T2', 'occupied'],
  ];
  for (const [name, status] of statuses) {
    const table = created.find((t) => t.name === name);
    if (table) await call('PUT', `/api/tavoli/${table.id}/status`, { status });
  }
  const bookings: Array<[string, string, string, number]> = [
    ['3', '20:00', 'Rossi', 4],
    ['5', '20:30', 'Bianchi', 6],
    ['8', '21:15', 'Esposito', 3],
    ['T4', '20:45', 'Ferrari', 5],
  ];
  for (const [name, time, customerName, covers] of bookings) {
    const table = created.find((t) => t.name === name);
    if (!table) continue;
    await call('POST', '/api/prenotazioni', {
      covers,
      customerName,
      bookingDate: `${today}T${time}`,
      tableIds: [table.id],
      state: 'confermata',
    });
  }
  // Tables joined for larger parties (docs/seating.md): drawn as one outline on the floor plan.
  const combinations: Array<[string[], number, number]> = [
    [['3', '4'], 5, 7],
    [['9', '10'], 3, 4],
    [['T1', 'T2'], 3, 4],
  ];
  for (const [names, minCovers, maxCovers] of combinations) {
    const tableIds = names.map((name) => created.find((t) => t.name === name)?.id);
    if (tableIds.some((id) => !id)) continue;
    await call('POST', '/api/combinazioni', { name: names.join('+'), tableIds, minCovers, maxCovers });
  }
  console.log(`room ${spec.codice}: ${created.length} tables`);
}
console.log(`Open ${values.url}/ and sign in with a token from: pnpm token --tenant ${tenantId} --admin`);
