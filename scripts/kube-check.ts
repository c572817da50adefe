/**
 * What scripts/ci-kube.sh asks of the Kubernetes manifests (deploy/kubernetes, through the CI
 * overlay deploy/kubernetes-ci) played with `podman kube play`:
 *   prepare RENDERED OUT                 splits the rendered manifests into what podman plays, one
 *                                        file per Deployment, and OUT/plan.json (see PODMAN below)
 *   probe PLAN DEPLOYMENT POD_IP         runs the Deployment's readiness and liveness probes
 *                                        against the pod as the kubelet does
 *   call PLAN SERVICE POD_IP             one `chat` call and one view read, through the Service
 *   call-during PLAN SERVICE POD_IP      a longer `chat` call, printing "progress" at its first
 *                                        progress notification (the CI script signals the pod
 *                                        then) and "answered-at MS" when the answer came
 *   across PLAN SERVICE POD_A POD_B      a session opened on pod A continues on pod B, and what
 *                                        one key spends on A is what B counts (one budget)
 *   exhaust PLAN SERVICE POD_A POD_B     the rest of the key's budget spent on A: B refuses past it
 * Clients reach a pod as they would through the Service: the URL names the Service and its port
 * (http://orbit-mcp/mcp, so the Host header is the one ORBIT_ALLOWED_HOSTS allows), and the
 * connection goes to the pod's address and the Service's target port, as kube-proxy sends it.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { connect as netConnect } from 'node:net';
import { join } from 'node:path';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { Agent, fetch as undiciFetch } from 'undici';
import { stringify } from 'yaml';
import { expand, type Json, parseManifests } from './lib/kube-manifests.js';
import { callChat, connect, fail, firstLine, LONG_CHAT, readGallery, resultText } from './lib/mcp-check.js';

/**
 * What podman 4.3 (Debian 12's) does not do as a cluster does, and how `prepare` and the CI
 * script make up for it; printed in the CI log.
 */
const PODMAN = [
  'Secret: podman keeps a played Secret as YAML but reads env secrets as a JSON map, so each is created with `podman secret create` from that map',
  '$(VAR) in args and env values: expanded here from the container env, as the kubelet does (podman passes them on literally)',
  'containerPort: dropped (podman would publish every one on the host 0.0.0.0); pods are reached at their own addresses, as in a cluster',
  'probes: run by kube-check.ts against the pod as the kubelet does (podman ignores readiness and turns liveness into a curl healthcheck that needs a shell and systemd)',
  'Service: each selected pod gets the Service name as a network alias (cluster DNS); CI clients connect to a pod at the target port (kube-proxy)',
  'termination: SIGTERM to the server process, then up to terminationGracePeriodSeconds for it to exit, as the kubelet does (podman kube down stops with a 0 s timeout: SIGKILL right after SIGTERM); kube down then removes the pods',
  'restartPolicy: Never in what podman plays (with Always, podman restarts a container that exits unless `podman stop` stopped it; a cluster deletes the pod instead)',
];

interface Probe {
  container: string;
  kind: 'startup' | 'readiness' | 'liveness';
  httpGet?: { path: string; port: number; scheme: string };
  tcpSocket?: { port: number };
  initialDelaySeconds: number;
  periodSeconds: number;
  timeoutSeconds: number;
  failureThreshold: number;
}
interface Plan {
  deployments: Record<
    string,
    {
      file: string;
      replicas: number;
      labels: Record<string, string>;
      aliases: string[];
      graceSeconds: number;
      probes: Probe[];
    }
  >;
  services: Record<string, { port: number; targetPort: number }>;
  secrets: { name: string; file: string }[];
  notPlayed: string[];
}

const asRecord = (value: unknown): Json => (value && typeof value === 'object' ? (value as Json) : {});
const asList = (value: unknown): Json[] => (Array.isArray(value) ? (value as Json[]) : []);
const nameOf = (doc: Json) => String(asRecord(doc.metadata).name);

function decodedSecrets(docs: Json[]): Record<string, Record<string, string>> {
  const secrets: Record<string, Record<string, string>> = {};
  for (const doc of docs.filter((d) => d.kind === 'Secret')) {
    const values: Record<string, string> = {};
    for (const [key, value] of Object.entries(asRecord(doc.data)))
      values[key] = Buffer.from(String(value), 'base64').toString('utf8');
    for (const [key, value] of Object.entries(asRecord(doc.stringData))) values[key] = String(value);
    secrets[nameOf(doc)] = values;
  }
  return secrets;
}

/** The container's environment as the kubelet builds it: envFrom first, then env in order. */
function containerEnv(
  container: Json,
  configMaps: Record<string, Record<string, string>>,
  secrets: Record<string, Record<string, string>>,
): Record<string, string> {
  const env: Record<string, string> = {};
  for (const from of asList(container.envFrom)) {
    const source = from.configMapRef
      ? configMaps[String(asRecord(from.configMapRef).name)]
      : secrets[String(asRecord(from.secretRef).name)];
    Object.assign(env, source ?? {});
  }
  for (const entry of asList(container.env)) {
    const name = String(entry.name);
    const ref = asRecord(asRecord(entry.valueFrom).secretKeyRef);
    const mapRef = asRecord(asRecord(entry.valueFrom).configMapKeyRef);
    if (typeof entry.value === 'string') env[name] = expand(entry.value, env);
    else if (ref.name) {
      const value = secrets[String(ref.name)]?.[String(ref.key)];
      if (value !== undefined) env[name] = value;
    } else if (mapRef.name) {
      const value = configMaps[String(mapRef.name)]?.[String(mapRef.key)];
      if (value !== undefined) env[name] = value;
    }
  }
  return env;
}

/** A probe's or a Service's port: a number, or the name of one of the pod's container ports. */
function resolvePort(port: unknown, containers: Json[], what: string): number {
  if (typeof port === 'number') return port;
  for (const container of containers)
    for (const p of asList(container.ports)) if (p.name === port) return Number(p.containerPort);
  return fail(`${what}: no container port named "${String(port)}"`);
}

function prepare(renderedPath: string, out: string): void {
  mkdirSync(out, { recursive: true });
  const docs = parseManifests(readFileSync(renderedPath, 'utf8'), renderedPath);
  const secrets = decodedSecrets(docs);
  const configMaps: Record<string, Record<string, string>> = {};
  for (const doc of docs.filter((d) => d.kind === 'ConfigMap'))
    configMaps[nameOf(doc)] = asRecord(doc.data) as Record<string, string>;

  const plan: Plan = { deployments: {}, services: {}, secrets: [], notPlayed: [] };
  for (const [name, values] of Object.entries(secrets)) {
    const file = join(out, `secret-${name}.json`);
    const map = Object.fromEntries(
      Object.entries(values).map(([key, value]) => [key, Buffer.from(value).toString('base64')]),
    );
    writeFileSync(file, JSON.stringify(map), { mode: 0o600 });
    plan.secrets.push({ name, file });
  }

  const deployments = docs.filter((d) => d.kind === 'Deployment');
  const templateOf = (deployment: Json) => asRecord(asRecord(deployment.spec).template);
  const podSpecOf = (deployment: Json) => asRecord(templateOf(deployment).spec);
  const labelsOf = (deployment: Json) =>
    asRecord(asRecord(templateOf(deployment).metadata).labels) as Record<string, string>;
  const services = docs.filter((d) => d.kind === 'Service');
  const selects = (service: Json, deployment: Json) => {
    const selector = Object.entries(asRecord(asRecord(service.spec).selector));
    const labels = labelsOf(deployment);
    return selector.length > 0 && selector.every(([key, value]) => labels[key] === value);
  };

  for (const deployment of deployments) {
    const name = nameOf(deployment);
    const containers = asList(podSpecOf(deployment).containers);
    const probes: Probe[] = [];
    const used = new Set<string>();
    for (const container of containers) {
      const env = containerEnv(container, configMaps, secrets);
      for (const field of ['command', 'args'] as const)
        if (Array.isArray(container[field]))
          container[field] = (container[field] as unknown[]).map((arg) => expand(String(arg), env));
      for (const entry of asList(container.env))
        if (typeof entry.value === 'string') entry.value = expand(entry.value, env);
      for (const from of asList(container.envFrom))
        if (from.configMapRef) used.add(String(asRecord(from.configMapRef).name));
      for (const entry of asList(container.env)) {
        const mapRef = asRecord(asRecord(entry.valueFrom).configMapKeyRef);
        if (mapRef.name) used.add(String(mapRef.name));
      }
      for (const kind of ['startup', 'readiness', 'liveness'] as const) {
        const probe = asRecord(container[`${kind}Probe`]);
        if (!Object.keys(probe).length) continue;
        const where = `${name}/${String(container.name)} ${kind} probe`;
        const http = asRecord(probe.httpGet);
        const tcp = asRecord(probe.tcpSocket);
        if (!probe.httpGet && !probe.tcpSocket)
          fail(`${where}: only httpGet and tcpSocket probes are run here`);
        probes.push({
          container: String(container.name),
          kind,
          ...(probe.httpGet
            ? {
                httpGet: {
                  path: String(http.path ?? '/'),
                  port: resolvePort(http.port, containers, where),
                  scheme: String(http.scheme ?? 'HTTP').toLowerCase(),
                },
              }
            : { tcpSocket: { port: resolvePort(tcp.port, containers, where) } }),
          initialDelaySeconds: Number(probe.initialDelaySeconds ?? 0),
          periodSeconds: Number(probe.periodSeconds ?? 10),
          timeoutSeconds: Number(probe.timeoutSeconds ?? 1),
          failureThreshold: Number(probe.failureThreshold ?? 3),
        });
        delete container[`${kind}Probe`];
      }
    }
    for (const service of services.filter((s) => selects(s, deployment))) {
      const port = asList(asRecord(service.spec).ports)[0] ?? {};
      plan.services[nameOf(service)] = {
        port: Number(port.port),
        targetPort: resolvePort(port.targetPort ?? port.port, containers, `Service ${nameOf(service)}`),
      };
    }
    for (const container of containers) delete container.ports;
    podSpecOf(deployment).restartPolicy = 'Never';
    const file = join(out, `${name}.yaml`);
    const played = [...docs.filter((d) => d.kind === 'ConfigMap' && used.has(nameOf(d))), deployment];
    writeFileSync(file, played.map((doc) => stringify(doc)).join('---\n'));
    plan.deployments[name] = {
      file,
      replicas: Number(asRecord(deployment.spec).replicas ?? 1),
      labels: asRecord(asRecord(asRecord(deployment.spec).selector).matchLabels) as Record<string, string>,
      aliases: services.filter((s) => selects(s, deployment)).map(nameOf),
      graceSeconds: Number(podSpecOf(deployment).terminationGracePeriodSeconds ?? 30),
      probes,
    };
  }
  for (const doc of docs) {
    if (['Deployment', 'ConfigMap', 'Secret'].includes(String(doc.kind))) continue;
    const why =
      doc.kind === 'Service'
        ? 'emulated (network alias, target port)'
        : doc.kind === 'NetworkPolicy'
          ? 'not enforced by podman'
          : 'no podman counterpart';
    plan.notPlayed.push(`${String(doc.kind)} ${nameOf(doc)}: ${why}`);
  }
  writeFileSync(join(out, 'plan.json'), JSON.stringify(plan, null, 2));
  console.log('podman 4.3 plays these manifests with these differences from a cluster:');
  for (const line of PODMAN) console.log(`  - ${line}`);
  console.log(
    `played: ${Object.keys(plan.deployments).join(', ')} (Deployments), their ConfigMaps and Secrets`,
  );
  console.log(`not played: ${plan.notPlayed.join('; ')}`);
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** One attempt of a probe, as the kubelet makes it: HTTP 200-399 within the timeout, or a TCP connect. */
async function attempt(probe: Probe, ip: string): Promise<string | undefined> {
  const timeoutMs = probe.timeoutSeconds * 1000;
  if (probe.httpGet) {
    const { scheme, port, path } = probe.httpGet;
    try {
      const response = await fetch(`${scheme}://${ip}:${port}${path}`, {
        headers: { 'user-agent': 'kube-probe/ci' },
        signal: AbortSignal.timeout(timeoutMs),
      });
      const body = (await response.text()).slice(0, 200);
      return response.status >= 200 && response.status < 400 ? undefined : `HTTP ${response.status} ${body}`;
    } catch (error) {
      return (error as Error).message;
    }
  }
  return new Promise((resolve) => {
    const socket = netConnect({ host: ip, port: probe.tcpSocket!.port, timeout: timeoutMs });
    socket.once('connect', () => {
      socket.destroy();
      resolve(undefined);
    });
    socket.once('timeout', () => {
      socket.destroy();
      resolve('timed out');
    });
    socket.once('error', (error) => resolve(error.message));
  });
}

const describeProbe = (probe: Probe) =>
  probe.httpGet
    ? `httpGet ${probe.httpGet.path} :${probe.httpGet.port}`
    : `tcpSocket :${probe.tcpSocket!.port}`;

/**
 * The pod's probes: startup and readiness are tried after their initial delay until they pass
 * (every second, where the kubelet waits periodSeconds; a pod never ready within a minute fails
 * the check); liveness must then pass at its first attempt.
 */
async function probePod(plan: Plan, deployment: string, ip: string): Promise<void> {
  const spec = plan.deployments[deployment] ?? fail(`no Deployment ${deployment} in the plan`);
  if (!spec.probes.length) fail(`${deployment} has no probes`);
  const until = Date.now() + 60_000;
  for (const probe of spec.probes.filter((p) => p.kind !== 'liveness')) {
    const started = Date.now();
    await sleep(probe.initialDelaySeconds * 1000);
    let tries = 0;
    for (;;) {
      tries += 1;
      const problem = await attempt(probe, ip);
      if (!problem) break;
      if (Date.now() > until)
        fail(`${deployment} ${probe.kind} ${describeProbe(probe)} at ${ip}: ${problem}`);
      await sleep(Math.min(probe.periodSeconds * 1000, 1000));
    }
    console.log(
      `${deployment} ${ip}: ${probe.kind} ${describeProbe(probe)} passed after ${tries} attempt(s), ${Date.now() - started} ms`,
    );
  }
  for (const probe of spec.probes.filter((p) => p.kind === 'liveness')) {
    const problem = await attempt(probe, ip);
    if (problem) fail(`${deployment} liveness ${describeProbe(probe)} at ${ip}: ${problem}`);
    console.log(`${deployment} ${ip}: liveness ${describeProbe(probe)} passed`);
  }
}

/** A client of the Service that kube-proxy sent to this pod: the Service's URL, the pod's socket. */
function throughService(plan: Plan, service: string, ip: string) {
  const spec = plan.services[service] ?? fail(`no Service ${service} in the plan`);
  const url = `http://${service}${spec.port === 80 ? '' : `:${spec.port}`}/mcp`;
  const agent = new Agent({
    connect: (_options, callback) => {
      const socket = netConnect({ host: ip, port: spec.targetPort });
      socket.once('connect', () => callback(null, socket));
      socket.once('error', (error) => callback(error, null));
    },
  });
  const fetch = ((input: string | URL, init?: RequestInit) =>
    undiciFetch(input, { ...(init as object), dispatcher: agent })) as unknown as typeof globalThis.fetch;
  return { url, fetch, where: `${url} via ${ip}:${spec.targetPort}` };
}

interface Budget {
  limit_usd: number | null;
  spent_usd: number;
  left_usd: number | null;
}

async function budgetOf(call: (name: string, args: Json) => Promise<CallToolResult>, where: string) {
  const result = await call('usage_get', {});
  const budget = asRecord(result.structuredContent).budget as Budget | undefined;
  if (result.isError || !budget) fail(`usage_get on ${where}: ${resultText(result)}`);
  return budget;
}

type Call = (name: string, args: Json) => Promise<CallToolResult>;
const caller =
  (client: Awaited<ReturnType<typeof connect>>['client']): Call =>
  (name, args) =>
    client.callTool({ name, arguments: args }) as Promise<CallToolResult>;

/** A session opened on pod A goes on on pod B, and a key's spend on A is what B counts. */
async function across(plan: Plan, service: string, ipA: string, ipB: string): Promise<void> {
  const viaA = throughService(plan, service, ipA);
  const viaB = throughService(plan, service, ipB);
  const a = await connect(viaA.url, { fetch: viaA.fetch });
  const sessionId = a.transport.sessionId ?? fail(`pod A (${viaA.where}) opened no session`);
  console.log(`A answered: ${firstLine(await callChat(a.client, viaA.where))}`);
  // Pod B has never seen this session: it finds it in the store.
  const b = await connect(viaB.url, { sessionId, fetch: viaB.fetch });
  b.transport.setProtocolVersion(a.transport.protocolVersion ?? '2025-11-25');
  console.log(`B answered: ${firstLine(await callChat(b.client, viaB.where))}`);
  console.log(`session ${sessionId.slice(0, 8)}… opened on ${ipA}, continued on ${ipB}`);

  const onA = caller(a.client);
  const onB = caller(b.client);
  const before = await budgetOf(onB, 'B');
  if (!before.limit_usd)
    fail(`pod B has no spend cap (ORBIT_MAX_SPEND_USD from the ConfigMap): ${JSON.stringify(before)}`);
  const search = await onA('web_search', { query: 'kubernetes pods sharing one store' });
  if (search.isError) fail(`web_search on A: ${resultText(search)}`);
  const seenByA = await budgetOf(onA, 'A');
  const seenByB = await budgetOf(onB, 'B');
  if (!(seenByA.spent_usd > before.spent_usd) || seenByB.spent_usd !== seenByA.spent_usd)
    fail(
      `a search on A moved the budget from ${before.spent_usd} to ${seenByA.spent_usd} USD, but B counts ${seenByB.spent_usd}`,
    );
  console.log(
    `budget: a search on A took it from ${before.spent_usd} to ${seenByA.spent_usd} of ${before.limit_usd} USD; B counts ${seenByB.spent_usd}`,
  );
  await b.client.close();
  await a.client.close();
}

/** What is left of the key's budget is spent on pod A; pod B then refuses the next paid call unsent. */
async function exhaust(plan: Plan, service: string, ipA: string, ipB: string): Promise<void> {
  const viaA = throughService(plan, service, ipA);
  const viaB = throughService(plan, service, ipB);
  const a = await connect(viaA.url, { fetch: viaA.fetch });
  const onA = caller(a.client);
  const b = await connect(viaB.url, { fetch: viaB.fetch });
  const onB = caller(b.client);
  let refusedOnA: CallToolResult | undefined;
  for (let i = 0; i < 10 && !refusedOnA; i++) {
    const result = await onA('web_search', { query: `spend the cap ${i}` });
    if (result.isError) refusedOnA = result;
  }
  if (!refusedOnA || !/budget_exceeded/.test(resultText(refusedOnA)))
    fail(
      `A never refused a search past the cap: ${refusedOnA ? resultText(refusedOnA) : 'all 10 were served'}`,
    );
  const spent = await budgetOf(onA, 'A');
  const refusedOnB = await onB('web_search', { query: 'one more from the other replica' });
  if (!refusedOnB.isError || !/budget_exceeded[\s\S]*Nothing was sent/.test(resultText(refusedOnB)))
    fail(`B served a search past the budget A spent: ${resultText(refusedOnB)}`);
  const seenByB = await budgetOf(onB, 'B');
  if (seenByB.spent_usd !== spent.spent_usd)
    fail(`A spent ${spent.spent_usd} USD, B counts ${seenByB.spent_usd}`);
  console.log(
    `budget: ${spent.spent_usd} of ${spent.limit_usd} USD spent on A; B counts the same and refused the next search unsent`,
  );
  await b.client.close();
  await a.client.close();
}

const [mode, ...rest] = process.argv.slice(2);
if (mode === 'prepare' && rest.length === 2) {
  prepare(rest[0]!, rest[1]!);
} else {
  const [planPath, name, ipA, ipB] = rest;
  if (!planPath || !name || !ipA) fail('usage: kube-check.ts prepare|probe|call|call-during|across …');
  const plan = JSON.parse(readFileSync(planPath, 'utf8')) as Plan;
  if (mode === 'probe') await probePod(plan, name, ipA);
  else if (mode === 'call' || mode === 'call-during') {
    const via = throughService(plan, name, ipA);
    const { client } = await connect(via.url, { fetch: via.fetch });
    const during = mode === 'call-during';
    const text = await callChat(
      client,
      via.where,
      during ? () => console.log('progress') : undefined,
      during ? LONG_CHAT : undefined,
    );
    // When the answer came, for the CI script to compare with the moment it sent SIGTERM.
    if (during) console.log(`answered-at ${Date.now()}`);
    console.log(`answer (${via.where}): ${firstLine(text, 160)}`);
    if (mode === 'call') console.log(`view: ${await readGallery(client)}`);
    await client.close();
  } else if (mode === 'across' && ipB) await across(plan, name, ipA, ipB);
  else if (mode === 'exhaust' && ipB) await exhaust(plan, name, ipA, ipB);
  else fail(`unknown mode "${mode}"`);
}
