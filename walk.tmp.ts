import { systemCodec } from './checker/encoding.ts';
import { explore } from './checker/explore.ts';
import { scopeByName } from './checker/scope-file.ts';
import { SystemModel } from './machines/system.ts';
const name = process.argv[2] ?? 'default';
const max = Number(process.argv[3] ?? 1e9);
const packed = process.argv[4] !== 'keyed';
for (let rep = 0; rep < Number(process.argv[5] ?? 1); rep++) {
const model = new SystemModel(scopeByName(name));
const t = performance.now();
const r = explore(model, { maxStates: max, ...(packed ? { codec: systemCodec(model) } : {}) });
const s = (performance.now() - t) / 1000;
console.log(name, packed ? 'packed' : 'keyed', r.states, r.transitions, r.depth, r.complete, s.toFixed(2), Math.round(r.states / s));
}
