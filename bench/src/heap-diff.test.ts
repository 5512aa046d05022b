import { describe, expect, it } from 'vitest';
import { attachments } from './heap-diff.js';

/** A V8 heap snapshot's layout with the few fields heap-diff reads. */
function snapshot(
  nodes: Array<{
    type: string;
    name: string;
    id: number;
    size: number;
    edges: Array<[string, string | number, number]>;
  }>,
) {
  const nodeTypes = ['hidden', 'object', 'string', 'closure'];
  const edgeTypes = ['context', 'element', 'property', 'internal', 'hidden', 'shortcut', 'weak'];
  const strings: string[] = [];
  const str = (s: string) => (strings.includes(s) ? strings.indexOf(s) : strings.push(s) - 1);
  const width = 5;
  return {
    snapshot: {
      meta: {
        node_fields: ['type', 'name', 'id', 'self_size', 'edge_count'],
        edge_fields: ['type', 'name_or_index', 'to_node'],
        node_types: [nodeTypes] as [string[]],
        edge_types: [edgeTypes] as [string[]],
      },
    },
    nodes: nodes.flatMap((n) => [nodeTypes.indexOf(n.type), str(n.name), n.id, n.size, n.edges.length]),
    edges: nodes.flatMap((n) =>
      n.edges.flatMap(([type, name, to]) => [
        edgeTypes.indexOf(type),
        typeof name === 'number' ? name : str(name),
        to * width,
      ]),
    ),
    strings,
  };
}

describe('heap-diff: where the new bytes of a later snapshot hang', () => {
  const root = { type: 'hidden', name: '(GC roots)', id: 1, size: 0 };
  const cache = { type: 'object', name: 'LRUCache', id: 3, size: 64 };
  const map = { type: 'object', name: 'Map', id: 5, size: 32 };
  const other = { type: 'object', name: 'Registry', id: 7, size: 16 };
  const before = snapshot([
    {
      ...root,
      edges: [
        ['property', 'cache', 1],
        ['property', 'registry', 3],
      ],
    },
    { ...cache, edges: [['property', 'keyMap', 2]] },
    { ...map, edges: [] },
    { ...other, edges: [] },
  ]);

  it('charges each new object to the first old object up its strong retainers, named by the edge holding it', () => {
    const after = snapshot([
      // A weak edge from the root to the view is not the one it hangs by.
      {
        ...root,
        edges: [
          ['weak', 1, 4],
          ['property', 'cache', 1],
          ['property', 'registry', 3],
        ],
      },
      { ...cache, edges: [['property', 'keyMap', 2]] },
      { ...map, edges: [['element', 0, 4]] },
      { ...other, edges: [['property', 'entry', 6]] },
      { type: 'object', name: 'View', id: 101, size: 100, edges: [['property', 'label', 5]] },
      { type: 'string', name: 'tenant-1', id: 103, size: 40, edges: [] },
      { type: 'object', name: 'Entry', id: 105, size: 8, edges: [] },
    ]);
    const { total, by } = attachments(before, after);
    expect(total).toBe(148);
    expect(by).toEqual([
      { holder: 'Map in LRUCache.keyMap in (hidden) (GC roots).cache', bytes: 140, objects: 2 },
      { holder: 'Registry in (hidden) (GC roots).registry', bytes: 8, objects: 1 },
    ]);
  });

  it('finds nothing new in the same snapshot', () => {
    expect(attachments(before, before)).toEqual({ total: 0, by: [] });
  });
});
