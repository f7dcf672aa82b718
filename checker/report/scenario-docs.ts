import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { writeFileAtomic } from '../cli/fs-atomic.ts';
import { loadRequirements, projectRoot } from '../scenario/catalog.ts';
import type { CompiledScenario } from '../scenario/compile.ts';
import { prepareScenario } from '../scenario/replay.ts';
import type { Generator } from './generator.ts';

/**
 * `docs/scenarios.md`: which scenario exercises which requirement, the list of scenarios with their
 * sources, and the file format. Generated from `scenarios/*.yaml` alone (not from replay results), so
 * it changes only when a scenario or the catalog does.
 */

export const scenariosFolder = 'scenarios';
export const scenariosDocPath = 'docs/scenarios.md';

/** Every scenario file under `scenarios/`, sorted, as paths relative to the root. */
export function scenarioFiles(root = projectRoot): string[] {
  const inFolder = (folder: string) =>
    readdirSync(join(root, folder))
      .filter((name) => name.endsWith('.yaml'))
      .sort()
      .map((name) => `${folder}/${name}`);
  return [...inFolder(scenariosFolder), ...inFolder(upstreamScenariosFolder)];
}

/** Kubernetes' own test cases, each translated into a scenario that names its source (issue 26). */
export const upstreamScenariosFolder = `${scenariosFolder}/upstream`;

/** Every scenario compiled; a malformed one stops the generator, since its table row would be a guess. */
export function compiledScenarios(root = projectRoot): CompiledScenario[] {
  return scenarioFiles(root).map((file) => {
    const prepared = prepareScenario(file, readFileSync(join(root, file), 'utf8'));
    if (!('scope' in prepared)) throw new Error(prepared.message);
    return prepared;
  });
}

export interface Coverage {
  id: string;
  text: string;
  exercised: string[];
  pending: string[];
  contrasted: string[];
}

/** For each requirement of the catalog: the scenarios exercising it, pending ones and contrasts apart. */
export function requirementCoverage(scenarios: readonly CompiledScenario[]): Coverage[] {
  return loadRequirements().map(({ id, text }) => ({
    id,
    text,
    exercised: scenarios.filter((s) => !s.pending && s.requirements.includes(id)).map((s) => s.file),
    pending: scenarios.filter((s) => s.pending && s.requirements.includes(id)).map((s) => s.file),
    contrasted: scenarios.filter((s) => s.contrasts.includes(id)).map((s) => s.file),
  }));
}

const cell = (text: string) => text.replace(/\|/g, '\\|').replace(/\n/g, ' ');
const link = (file: string) => `[${file.replace(/^scenarios\//, '').replace(/\.yaml$/, '')}](../${file})`;

const formatReference = `## The file format

One scenario per file, \`scenarios/NAME.yaml\`:

\`\`\`yaml
title: Content cannot be created in a terminating namespace
requirements: [LC-4]          # IDs of docs/requirements.md this story exercises
contrasts: [ALT-4]            # optional: alternatives whose rejected side the story shows
decisions: [D-3]              # optional: the decisions (docs/decisions.md) its expectations rest on
source: 001 "Terminating"     # optional: where the story comes from
variant: create-in-terminating  # optional: a variant of variants/variants.ts (default: the model)
pending: <reason>             # optional: a known gap of the model; reported as pending, not passed
given:                        # optional: the world before step 1
  namespaces: [{ name: team-a, finalizers: [kubernetes], creator: alice }]   # exist, Active
  objects: [{ kind: ConfigMap, namespace: team-a, name: settings }]
  manifests: [...]            # ClusterRole, ClusterRoleBinding, RoleBinding, Role, Namespace, content,
                              # NamespaceInitializerConfiguration (as kubectl takes them)
  users: [{ name: alice, groups: [teams@corp.com] }]
  initializers:               # what an initializer creates in each namespace it initializes
    policy.example.com:
      creates: { kind: RoleBinding, name: namespace-admin, roleRef: {...}, subjects: [{ kind: User, name: $creator }] }
steps:
  - { as: alice, groups: [..], do: VERB PATH, body: {...}, expect: 201 | "403 Forbidden" | { code, reason, cause, message, items } }
  - run: namespace-controller   # an actor acts until nothing it does changes anything (optional namespace:)
  - step: policy.example.com    # exactly one action (optional namespace:, expect:)
  - crash: policy.example.com   # crash | restart an initializer; crash: apiserver loses its timers
  - fail: config-read           # fail | recover: config-read
  - tick: 5                     # the logical clock advances; expired apiserver timers fire at once
  - check: { namespace, exists, phase, finalizers, metadataFinalizers, pending, creator, result, conditions, deletionTimestamp, timer, objects, externalContent }
  - admission: { fresh, read }  # admission's configuration copy: fresh (read within 5 s) and the configurations read
  - eventually:                 # every fair continuation from here reaches one of these (a liveness expectation)
      any: [{ namespace: team-a, gone: true }, { admission: { fresh: false } }]
      fair: [namespace-controller, finalizer-owners]
\`\`\`

- Verbs: \`create get list watch update patch delete deletecollection finalize\` (\`patch\` is served as the update it amounts to; \`watch\`, on a list path, as the list it starts with, authorized as \`watch\`; \`deletecollection\`, on \`namespaces/NS/RESOURCE\`, deletes every object of the resource there and answers their names as \`items\`).
  Paths: \`namespaces\`, \`namespaces/NAME\`, \`namespaces/NAME/finalize\`, \`namespaces/NAME/status\`,
  \`namespaces/NS/RESOURCE[/NAME]\`, \`RESOURCE\` (list across namespaces), legacy \`RESOURCE/NAME\` (the
  \`default\` namespace, NS-6), and the cluster-scoped configurations \`namespaceinitializerconfigurations/NAME\`,
  \`initializerconfigurations/NAME\`, \`externaladmissionhookconfigurations/NAME\` (create, get, update, delete,
  decided like any request: RBAC, admission, 422 validation, 409/404; D-32). Resources: configmaps, secrets,
  pods, rolebindings, roles, resourcequotas, networkpolicies.
- Bodies are partial Kubernetes objects. A namespace's \`spec.finalizers\` and \`spec.initializers\`
  (\`pending: [{ name }]\`, \`result: { status: Failure, reason, message }\`); an update's pending list is
  compared with the stored one (removing one name completes that initializer); \`finalize\` carries
  \`{ finalizers: [...] }\`; a RoleBinding carries \`roleRef\` and \`subjects\`. A namespace create may send
  \`metadata.generateName\` instead of a name: the k-th create with a prefix in the scenario gets the k-th
  suffix, \`bbbbb\` first (\`team-bbbbb\`, then \`team-bbbbc\`), and later steps name it so (D-45).
  A namespace create or update may send \`metadata.finalizers\`, and a namespace DELETE a DeleteOptions body
  \`{ propagationPolicy: Orphan | Background | Foreground }\`, which sets the garbage collector's \`orphan\` or
  \`foregroundDeletion\` (D-46). A DELETE of a namespace or a content object may send \`preconditions: { uid,
  resourceVersion }\`: the model keeps neither, so any value sent is unmet and storage answers 409 Conflict
  after the 404 of a missing object and before anything else the DELETE does (D-46).
- \`items\` of a list inside a namespace are plain names, across namespaces \`NAMESPACE/NAME\`; compared as a
  set. \`finalizers\`, \`metadataFinalizers\` and \`objects\` are compared as sets, \`pending\` in order. \`deletionTimestamp\` is
  \`true\`/\`false\` or the logical second it was set. \`result\` is \`none\` or \`{ status: Failure, reason }\`.
  \`externalContent\` lists the finalizer owners whose content outside the cluster exists (LC-8).
  \`timer\` is \`none\` or the API server's timer on the first pending initializer, \`{ initializer, ageSeconds }\` (FP-2).
  \`creator\` is the user whose create made the namespace, as it records it (RB-2, D-34: OpenShift's
  \`openshift.io/requester\`), or \`null\` for one the cluster made.
- \`eventually\` states what the documents promise will happen, not when: it passes when every fair
  continuation from the state the steps before it reached meets one of the conditions under \`any\`. A
  condition is \`{ namespace, ... }\` with any of \`exists\`, \`gone\` (it existed and was removed, LC-7),
  \`phase\` (a phase or \`{ not: PHASE }\`), \`pending\`, \`firstPending: { not: NAME }\`, \`timer: lost\` (an
  API server restart lost it), all of which must hold; or \`{ initializer, crashed }\`, \`{ admission: { fresh } }\`
  (fresh: a successful read within the scope's stale-after seconds, AC-2) or \`{ configReads: failing | succeeding }\`.
  \`fair\` names who keeps acting, each as weak fairness per namespace, as the liveness properties of
  \`properties/liveness.ts\` state theirs: \`namespace-controller\`, \`finalizer-owners\`, \`initializers\`,
  \`apiserver-timers\`, \`clock\` (time passes), \`polling\` (a client keeps getting the namespace, IN-8); a run
  may otherwise stop anywhere. The judge explores every state reachable from there within the scenario's scope
  (the liveness checker's search for a fair cycle, \`checker/scenario/eventually.ts\`); it fails with the run it
  found, a path and then a cycle repeated forever, and a search cut short at 200,000 states is a failure, never
  a pass. \`npm run replay -- --trace LASSO.itf.json --to-scenario OUT.yaml\` writes a liveness counterexample
  this way: the lasso's path as steps, the violated property's goal as \`eventually\`, its cycle as a comment.

**Defaults.** The namespaces \`default\` (and \`kube-system\`, \`kube-public\` when named) exist and are immortal.
Every principal is in \`system:authenticated\` except \`system:anonymous\`, which is in \`system:unauthenticated\` only; service accounts \`system:serviceaccount:NS:NAME\` are also in
\`system:serviceaccounts\` and \`system:serviceaccounts:NS\`; the group \`system:masters\` may do anything. Built in:
the ClusterRoles \`cluster-admin\`, \`admin\`, \`edit\`, \`view\`, \`namespace-creator\`, \`namespace-initializer\`; the
namespace controller, the initializers' account \`kube-system:ns-initializer-sa\` and each finalizer owner hold
exactly what their jobs need (D-33). An initializer is an entry of a \`NamespaceInitializerConfiguration\` manifest (\`failurePolicy\`
Ignore and \`timeoutSeconds\` 5 unless given) and, unless \`given.initializers\` says otherwise, creates a
ConfigMap named after itself. A finalizer owner is any prefixed finalizer the scenario names. The
namespace's creator (for \`$creator\`) is who sent the create that made it. Read-repair acts 600 s after creation
(document 004's global timeout). Admission reads configurations once per tick and refuses writes after 5 s
without a successful read.
`;

export function scenariosDoc(scenarios: readonly CompiledScenario[]): string {
  const coverage = requirementCoverage(scenarios);
  const lines = [
    '# Scenarios',
    '',
    'Generated from `scenarios/*.yaml` (do not edit): `npm run replay -- --write-docs` rewrites it and',
    '`npm run check:generated` checks it. Replay the scenarios with `npm run replay -- scenarios`; each also',
    'runs as a test in `scenarios/scenarios.test.ts`.',
    '',
    `${scenarios.length} scenarios, ${scenarios.filter((s) => s.pending).length} of them pending (a known gap of the model, named in the file).`,
    '',
    '## Requirements → scenarios',
    '',
    '| requirement | rule | exercised by | pending (known gap) | shown in contrast by |',
    '| --- | --- | --- | --- | --- |',
    ...coverage.map(
      (c) =>
        `| ${c.id} | ${cell(c.text)} | ${c.exercised.map(link).join(', ')} | ${c.pending.map(link).join(', ')} | ${c.contrasted.map(link).join(', ')} |`,
    ),
    '',
    '## Scenarios',
    '',
    '| scenario | story | source | requirements | decisions | steps |',
    '| --- | --- | --- | --- | --- | --- |',
    ...scenarios.map(
      (s) =>
        `| ${link(s.file)}${s.variant !== 'model' ? ` (variant \`${s.variant}\`)` : ''} | ${cell(s.title)}${s.pending ? ` **Pending:** ${cell(s.pending)}` : ''} | ${cell(s.source ?? '')} | ${s.requirements.join(', ')}${s.contrasts.length > 0 ? `; contrasts ${s.contrasts.join(', ')}` : ''} | ${s.decisions.join(', ')} | ${s.steps.length} |`,
    ),
    '',
    formatReference,
  ];
  return `${lines.join('\n')}`;
}

/** The generator entry: writes docs/scenarios.md under `rootDir` from the tree's scenarios. */
export async function generateScenariosDoc(rootDir: string): Promise<string[]> {
  await writeFileAtomic(join(rootDir, scenariosDocPath), scenariosDoc(compiledScenarios()));
  return [scenariosDocPath];
}

export const scenariosDocGenerator: Generator = {
  name: 'scenarios',
  owns: [scenariosDocPath],
  generate: generateScenariosDoc,
};
