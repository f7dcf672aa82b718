import { runMutants, writeMutants } from '../checker/mutants.ts';
import { mutants } from '../machines/variants.ts';

/**
 * `npm run mutants [-- NAME...]`: checks every seeded fault (or the named ones), prints how each was
 * killed and how long it took, and writes generated/mutants.md and .json when all were run. Exits 1
 * naming every mutant no property kills: then a property is missing or too weak.
 */
const names = process.argv.slice(2);
const unknown = names.filter((name) => !mutants.some((m) => m.name === name));
if (unknown.length > 0) {
  console.error(
    `mutants: unknown mutant ${unknown.join(', ')}; known: ${mutants.map((m) => m.name).join(', ')}`,
  );
  process.exit(2);
}
const selected = names.length > 0 ? mutants.filter((m) => names.includes(m.name)) : mutants;

const started = performance.now();
const results = runMutants(
  {},
  (r, ms) => {
    const seconds = (ms / 1000).toFixed(1);
    const verdict =
      r.killedBy.length > 0
        ? `killed by ${r.killedBy.join(', ')} in ${r.counterexampleSteps.length} steps (${r.search}, ${r.scope}, ${r.statesExplored} states)`
        : `SURVIVED (${r.statesExplored} states, then random walks)`;
    console.log(`${r.mutant}: ${verdict}, ${seconds} s`);
  },
  selected,
);
if (selected.length === mutants.length) {
  const written = await writeMutants(process.cwd(), results);
  console.log(`mutants: wrote ${written.join(', ')}`);
}
const survivors = results.filter((r) => r.killedBy.length === 0);
console.log(
  `mutants: ${results.length - survivors.length} of ${results.length} killed in ${((performance.now() - started) / 1000).toFixed(1)} s`,
);
if (survivors.length > 0) {
  console.error(`mutants: not killed by any property: ${survivors.map((r) => r.mutant).join(', ')}`);
  process.exitCode = 1;
}
