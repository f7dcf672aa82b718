/** A small graph's edges by source state: `edgeTable('0 -a-> 1, 1 -b-> 0')`, in the order written. */
export type EdgeTable = Record<number, [string, number][]>;

export function edgeTable(edges: string): EdgeTable {
  const table: EdgeTable = {};
  for (const edge of edges.split(',')) {
    const m = /^\s*(\d+)\s+-(\S+?)->\s+(\d+)\s*$/.exec(edge);
    if (!m) throw new Error(`edge ${JSON.stringify(edge)}: write it as "FROM -EVENT-> TO"`);
    const from = Number(m[1]);
    table[from] ??= [];
    table[from].push([m[2], Number(m[3])]);
  }
  return table;
}
