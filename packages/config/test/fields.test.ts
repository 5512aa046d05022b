import { describe, expect, it } from 'vitest';
import type { Field } from '../src/index.js';
import { bool, custom, duration, int, list, oneOf, port, str, url } from '../src/index.js';

/** Each row: a field, a raw value, and either the parsed value or a fragment of the error message. */
type Row = [
  name: string,
  field: Field<unknown>,
  raw: string,
  expected: { value: unknown } | { error: RegExp },
];

const rows: Row[] = [
  ['str', str(), 'hello', { value: 'hello' }],
  ['str minLength ok', str({ minLength: 3 }), 'abc', { value: 'abc' }],
  ['str minLength short', str({ minLength: 32 }), 'short', { error: /too short: 5 characters, at least 32/ }],
  ['str maxLength', str({ maxLength: 2 }), 'abc', { error: /too long/ }],
  ['str pattern ok', str({ pattern: /[a-z]+/ }), 'abc', { value: 'abc' }],
  ['str pattern is anchored', str({ pattern: /[a-z]+/ }), 'abc1', { error: /does not match/ }],
  ['int', int(), '42', { value: 42 }],
  ['int negative', int(), '-7', { value: -7 }],
  ['int with plus', int(), '+7', { value: 7 }],
  ['int float', int(), '1.5', { error: /expected an integer/ }],
  ['int words', int(), 'twelve', { error: /expected an integer/ }],
  ['int hex', int(), '0x10', { error: /expected an integer/ }],
  ['int unsafe', int(), '9007199254740993', { error: /expected an integer/ }],
  ['int min', int({ min: 1 }), '0', { error: /out of range: expected an integer >= 1/ }],
  ['int max', int({ max: 10 }), '11', { error: /out of range: expected an integer <= 10/ }],
  ['int between', int({ min: 1, max: 10 }), '10', { value: 10 }],
  ['port', port(), '3001', { value: 3001 }],
  ['port zero (ephemeral, tests)', port(), '0', { value: 0 }],
  ['port too large', port(), '65536', { error: /expected a port number/ }],
  ['port words', port(), 'http', { error: /expected a port number/ }],
  ['port negative', port(), '-1', { error: /expected a port number/ }],
  ['bool true', bool(), 'true', { value: true }],
  ['bool TRUE', bool(), 'TRUE', { value: true }],
  ['bool 1', bool(), '1', { value: true }],
  ['bool false', bool(), 'False', { value: false }],
  ['bool 0', bool(), '0', { value: false }],
  ['bool yes is not accepted', bool(), 'yes', { error: /expected true, false, 1 or 0/ }],
  ['url', url(), 'https://idp.example/jwks.json', { value: 'https://idp.example/jwks.json' }],
  ['url relative', url(), '/jwks.json', { error: /expected an absolute URL/ }],
  [
    'url protocol ok',
    url({ protocols: ['nats'] }),
    'nats://127.0.0.1:4222',
    { value: 'nats://127.0.0.1:4222' },
  ],
  ['url protocol with colon', url({ protocols: ['redis:'] }), 'redis://h:6379', { value: 'redis://h:6379' }],
  [
    'url protocol refused',
    url({ protocols: ['https'] }),
    'http://x.example',
    { error: /scheme http not allowed/ },
  ],
  [
    'url multi-host mongodb',
    url({ protocols: ['mongodb', 'mongodb+srv'] }),
    'mongodb://a:27017,b:27017/db?replicaSet=rs0',
    { value: 'mongodb://a:27017,b:27017/db?replicaSet=rs0' },
  ],
  [
    'url mongodb+srv',
    url({ protocols: ['mongodb+srv'] }),
    'mongodb+srv://c.example/db',
    { value: 'mongodb+srv://c.example/db' },
  ],
  ['oneOf', oneOf(['embedded', 'distributed']), 'embedded', { value: 'embedded' }],
  [
    'oneOf case-sensitive',
    oneOf(['embedded', 'distributed']),
    'Embedded',
    { error: /one of embedded, distributed/ },
  ],
  ['list', list(), 'a, b,,c ', { value: ['a', 'b', 'c'] }],
  ['list of commas only', list(), ' , ,', { error: /got no items/ }],
  ['list of ints', list({ item: int({ min: 1 }) }), '1,2,3', { value: [1, 2, 3] }],
  ['list bad item', list({ item: int({ min: 1 }) }), '1,0', { error: /item 2: out of range/ }],
  ['list of oneOf', list({ item: oneOf(['RS256', 'ES256']) }), 'RS256,ES256', { value: ['RS256', 'ES256'] }],
  ['duration ms', duration(), '250ms', { value: 250 }],
  ['duration s', duration(), '30s', { value: 30_000 }],
  ['duration m', duration(), '5m', { value: 300_000 }],
  ['duration h', duration(), '2h', { value: 7_200_000 }],
  ['duration d', duration(), '1d', { value: 86_400_000 }],
  ['duration fraction', duration(), '1.5s', { value: 1500 }],
  ['duration bare = ms', duration(), '300', { value: 300 }],
  ['duration bare in seconds', duration({ bareUnit: 's' }), '300', { value: 300_000 }],
  ['duration bad unit', duration(), '5 weeks', { error: /expected a duration/ }],
  ['duration negative', duration(), '-5s', { error: /expected a duration/ }],
  ['duration min', duration({ min: 1000 }), '10ms', { error: /too short/ }],
  ['custom', custom({ expected: 'an even number', parse: (raw) => evenNumber(raw) }), '4', { value: 4 }],
  [
    'custom refuses',
    custom({ expected: 'an even number', parse: (raw) => evenNumber(raw) }),
    '3',
    { error: /odd/ },
  ],
];

function evenNumber(raw: string): number {
  const n = Number(raw);
  if (n % 2 !== 0) throw new Error('odd');
  return n;
}

describe('field parsers', () => {
  it.each(rows)('%s: %j', (_name, field, raw, expected) => {
    if ('value' in expected) {
      expect(field.parse(raw)).toEqual(expected.value);
    } else {
      expect(() => field.parse(raw)).toThrow(expected.error);
    }
  });

  it('freezes parsed lists', () => {
    const value = list().parse('a,b');
    expect(Object.isFrozen(value)).toBe(true);
  });

  it('derives presence from default and optional', () => {
    expect(int().whenUnset).toBeUndefined();
    expect(int({ default: 3 }).whenUnset).toEqual({ value: 3 });
    expect(int({ optional: true }).whenUnset).toEqual({ value: undefined });
    expect(bool({ default: false }).whenUnset).toEqual({ value: false });
  });

  it('marks secret fields and gives them no display function', () => {
    const secret = str({ secret: true });
    expect(secret.secret).toBe(true);
    expect(secret.show).toBeUndefined();
    expect(str().show?.('x')).toBe('"x"');
    const secretList = list({ item: str({ secret: true }) });
    expect(secretList.secret).toBe(true);
    expect(secretList.show).toBeUndefined();
  });

  it('masks the user-info of a URL when showing it', () => {
    const field = url();
    expect(field.show?.('mongodb://admin:hunter2@db:27017/x')).toBe('"mongodb://***@db:27017/x"');
  });
});
