/**
 * The Kubernetes manifests (deploy/kubernetes) as a cluster and the server read them: every
 * document is valid against the Kubernetes API schema (kubernetes-models), the kustomization lists
 * every file, and what they promise holds together: two replicas probed on /health and /ready on
 * the port the server listens on, non-root on a read-only root with emptyDirs where it writes, a
 * grace period longer than the drain, requests and limits, a ConfigMap the server accepts as its
 * configuration, a Secret with every key the pods read, Services and policies that select the pods.
 * CI plays them for real (scripts/ci-kube.sh); this catches a broken manifest without podman.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Deployment } from 'kubernetes-models/apps/v1';
import { NetworkPolicy } from 'kubernetes-models/networking.k8s.io/v1';
import { PodDisruptionBudget } from 'kubernetes-models/policy/v1';
import { ConfigMap, Secret, Service } from 'kubernetes-models/v1';
import { describe, expect, it } from 'vitest';
import { expand, type Json, parseManifests } from '../../scripts/lib/kube-manifests.js';
import { ENV_NAMES, loadConfig } from '../../src/config.js';

const BASE = 'deploy/kubernetes';
const CI = 'deploy/kubernetes-ci';
const VERSION = (JSON.parse(readFileSync('package.json', 'utf8')) as { version: string }).version;

const read = (dir: string, file: string) =>
  parseManifests(readFileSync(join(dir, file), 'utf8'), `${dir}/${file}`);
const kustomization = (dir: string) => read(dir, 'kustomization.yaml')[0]!;
const base = (kustomization(BASE).resources as string[]).flatMap((file) => read(BASE, file));
const ciSecret = read(CI, 'secret.yaml');

const named = (kind: string, name: string) => {
  const doc = base.find((d) => d.kind === kind && (d.metadata as Json).name === name);
  if (!doc) throw new Error(`no ${kind} ${name} in ${BASE}`);
  return doc as Json & { spec: Json };
};
const podSpec = (deployment: Json) => ((deployment.spec as Json).template as Json).spec as PodSpec;
const podLabels = (deployment: Json) =>
  (((deployment.spec as Json).template as Json).metadata as { labels: Record<string, string> }).labels;
const selects = (selector: Record<string, string>, labels: Record<string, string>) =>
  Object.keys(selector).length > 0 && Object.entries(selector).every(([key, value]) => labels[key] === value);

interface Probe {
  httpGet?: { path: string; port: string | number };
  tcpSocket?: { port: string | number };
}
interface Container {
  name: string;
  image: string;
  args?: string[];
  ports?: { name?: string; containerPort: number }[];
  env?: { name: string; value?: string; valueFrom?: { secretKeyRef?: { name: string; key: string } } }[];
  envFrom?: { configMapRef?: { name: string }; secretRef?: { name: string } }[];
  readinessProbe?: Probe;
  livenessProbe?: Probe;
  resources?: { requests?: Record<string, string>; limits?: Record<string, string> };
  securityContext?: Json;
  volumeMounts?: { name: string; mountPath: string }[];
}
interface PodSpec {
  containers: Container[];
  volumes?: { name: string; emptyDir?: Json }[];
  securityContext?: Json;
  terminationGracePeriodSeconds?: number;
}

const MODELS: Record<string, new (data: never) => { validate(): void }> = {
  'apps/v1 Deployment': Deployment,
  'v1 Service': Service,
  'v1 ConfigMap': ConfigMap,
  'v1 Secret': Secret,
  'policy/v1 PodDisruptionBudget': PodDisruptionBudget,
  'networking.k8s.io/v1 NetworkPolicy': NetworkPolicy,
};

/** What the image declares (Containerfile): its user and HOME, which the manifests must agree with. */
const containerfile = readFileSync('Containerfile', 'utf8');
const IMAGE_UID = Number(/^USER (\d+):/m.exec(containerfile)![1]);
const IMAGE_HOME = /HOME=(\S+)/.exec(containerfile)![1]!;

describe('deploy/kubernetes', () => {
  it('lists every manifest in its kustomization, and each is valid against the Kubernetes API schema', () => {
    const files = readdirSync(BASE).filter((file) => file.endsWith('.yaml') && file !== 'kustomization.yaml');
    expect([...(kustomization(BASE).resources as string[])].sort()).toEqual(files.sort());
    for (const doc of [...base, ...ciSecret]) {
      const model = MODELS[`${String(doc.apiVersion)} ${String(doc.kind)}`];
      expect(model, `a model for ${String(doc.apiVersion)} ${String(doc.kind)}`).toBeDefined();
      expect(
        () => new model!(doc as never).validate(),
        `${String(doc.kind)} ${(doc.metadata as Json).name}`,
      ).not.toThrow();
    }
    // The schema check is real: a wrong type is refused.
    const broken = structuredClone(named('Deployment', 'orbit-mcp'));
    podSpec(broken).containers[0]!.ports![0]!.containerPort = '8787' as never;
    expect(() => new Deployment(broken as never).validate()).toThrow(/containerPort must be integer/);
  });

  it('runs two replicas of the image of this version, rolling one at a time', () => {
    const deployment = named('Deployment', 'orbit-mcp');
    expect(deployment.spec).toMatchObject({
      replicas: 2,
      strategy: { type: 'RollingUpdate', rollingUpdate: { maxUnavailable: 0 } },
    });
    expect(
      selects(
        (deployment.spec.selector as Json).matchLabels as Record<string, string>,
        podLabels(deployment),
      ),
    ).toBe(true);
    expect(podSpec(deployment).containers[0]!.image).toBe(`orbit-mcp:${VERSION}`);
    expect(kustomization(BASE).images).toContainEqual(
      expect.objectContaining({ name: 'orbit-mcp', newTag: VERSION }),
    );
  });

  it('probes /ready and /health on the port the server listens on', () => {
    const container = podSpec(named('Deployment', 'orbit-mcp')).containers[0]!;
    const args = container.args!;
    expect(args).toEqual(expect.arrayContaining(['--http', '--host', '0.0.0.0']));
    const listens = Number(args[args.indexOf('--port') + 1]);
    const port = (name: string | number) =>
      typeof name === 'number' ? name : container.ports!.find((p) => p.name === name)?.containerPort;
    expect(container.readinessProbe?.httpGet?.path).toBe('/ready');
    expect(container.livenessProbe?.httpGet?.path).toBe('/health');
    expect(port(container.readinessProbe!.httpGet!.port)).toBe(listens);
    expect(port(container.livenessProbe!.httpGet!.port)).toBe(listens);
  });

  it.each(['orbit-mcp', 'valkey'])(
    '%s: non-root, no capabilities, read-only root, emptyDirs where it writes, requests and limits',
    (name) => {
      const spec = podSpec(named('Deployment', name));
      expect(spec.securityContext).toMatchObject({
        runAsNonRoot: true,
        seccompProfile: { type: 'RuntimeDefault' },
      });
      expect(spec.securityContext?.runAsUser).toBeGreaterThan(0);
      for (const container of spec.containers) {
        expect(container.securityContext).toEqual({
          allowPrivilegeEscalation: false,
          readOnlyRootFilesystem: true,
          capabilities: { drop: ['ALL'] },
        });
        for (const kind of ['requests', 'limits'] as const)
          expect(Object.keys(container.resources?.[kind] ?? {}).sort(), kind).toEqual(['cpu', 'memory']);
        for (const mount of container.volumeMounts ?? [])
          expect(spec.volumes?.find((v) => v.name === mount.name)?.emptyDir, mount.mountPath).toBeDefined();
      }
    },
  );

  it('orbit-mcp runs as the image user and can write its HOME and /tmp', () => {
    const spec = podSpec(named('Deployment', 'orbit-mcp'));
    expect(spec.securityContext).toMatchObject({
      runAsUser: IMAGE_UID,
      runAsGroup: IMAGE_UID,
      fsGroup: IMAGE_UID,
    });
    const mounts = spec.containers[0]!.volumeMounts!.map((m) => m.mountPath);
    expect(mounts.sort()).toEqual([IMAGE_HOME, '/tmp'].sort());
  });

  it('gives the drain and its hand-over time to finish before SIGKILL', () => {
    const settings = named('ConfigMap', 'orbit-mcp').data as Record<string, string>;
    const drainSeconds = Number(settings.ORBIT_DRAIN_MS) / 1000;
    // After the drain: the hand-over grace (5 s) and the exit grace (2 s), then some slack.
    expect(podSpec(named('Deployment', 'orbit-mcp')).terminationGracePeriodSeconds).toBeGreaterThanOrEqual(
      drainSeconds + 10,
    );
  });

  it('has a ConfigMap the server takes as its configuration, naming only variables it reads', () => {
    const settings = named('ConfigMap', 'orbit-mcp').data as Record<string, string>;
    const known = new Set<string>(Object.values(ENV_NAMES));
    for (const key of Object.keys(settings).filter((k) => k.startsWith('ORBIT_')))
      expect(known, key).toContain(key);
    const secret = (ciSecret[0]!.stringData ?? {}) as Record<string, string>;
    const config = loadConfig({}, { ...settings, ...secret });
    // Clients inside the cluster use the Service's name; the server must accept it as Host.
    expect(config.allowedHosts).toContain('orbit-mcp');
    expect(config.store).toMatch(/^redis:\/\//);
  });

  it('reads from a Secret that has every key the pods ask for, and expands the store password into its args', () => {
    const secret = ciSecret[0]!;
    const keys = Object.keys({ ...(secret.data as Json), ...(secret.stringData as Json) });
    for (const name of ['orbit-mcp', 'valkey']) {
      for (const container of podSpec(named('Deployment', name)).containers) {
        for (const entry of container.env ?? []) {
          const ref = entry.valueFrom?.secretKeyRef;
          if (!ref) continue;
          expect(ref.name).toBe((secret.metadata as Json).name);
          expect(keys).toContain(ref.key);
        }
      }
    }
    const valkey = podSpec(named('Deployment', 'valkey')).containers[0]!;
    const env = Object.fromEntries(keys.map((key) => [key, String((secret.stringData as Json)[key])]));
    const args = valkey.args!.map((arg) => expand(arg, env));
    expect(args[args.indexOf('--requirepass') + 1]).toBe(env.VALKEY_PASSWORD);
    expect(new URL(env.ORBIT_STORE_URL!).password).toBe(env.VALKEY_PASSWORD);
  });

  it('Services select the pods, on ports the containers have; the store URL names the store Service', () => {
    for (const name of ['orbit-mcp', 'valkey']) {
      const service = named('Service', name).spec as { selector: Record<string, string>; ports: Json[] };
      const deployment = named('Deployment', name);
      expect(selects(service.selector, podLabels(deployment))).toBe(true);
      const ports = podSpec(deployment).containers.flatMap((c) => c.ports ?? []);
      for (const port of service.ports) expect(ports.map((p) => p.name)).toContain(port.targetPort);
    }
    const store = new URL(String((ciSecret[0]!.stringData as Json).ORBIT_STORE_URL));
    const valkeyPort = (named('Service', 'valkey').spec.ports as { port: number }[])[0]!.port;
    expect([store.hostname, Number(store.port)]).toEqual(['valkey', valkeyPort]);
  });

  it('lets only orbit-mcp pods reach the store, and keeps one replica through a disruption', () => {
    const policy = named('NetworkPolicy', 'valkey').spec as {
      podSelector: { matchLabels: Record<string, string> };
      ingress: { from: { podSelector: { matchLabels: Record<string, string> } }[] }[];
    };
    expect(selects(policy.podSelector.matchLabels, podLabels(named('Deployment', 'valkey')))).toBe(true);
    expect(policy.ingress.flatMap((rule) => rule.from)).toHaveLength(1);
    expect(
      selects(
        policy.ingress[0]!.from[0]!.podSelector.matchLabels,
        podLabels(named('Deployment', 'orbit-mcp')),
      ),
    ).toBe(true);
    const budget = named('PodDisruptionBudget', 'orbit-mcp').spec as {
      minAvailable: number;
      selector: { matchLabels: Record<string, string> };
    };
    expect(budget.minAvailable).toBeLessThan(named('Deployment', 'orbit-mcp').spec.replicas as number);
    expect(selects(budget.selector.matchLabels, podLabels(named('Deployment', 'orbit-mcp')))).toBe(true);
  });

  it('names the official Valkey image for a real cluster', () => {
    expect(podSpec(named('Deployment', 'valkey')).containers[0]!.image).toMatch(/^valkey\/valkey:\d/);
  });
});

describe('deploy/kubernetes-ci', () => {
  const overlay = kustomization(CI);
  const script = readFileSync('scripts/ci-kube.sh', 'utf8');

  it('swaps in the images CI builds, under the tags scripts/ci-kube.sh builds', () => {
    const tag = (variable: string) => new RegExp(`^${variable}='([^']+)'`, 'm').exec(script)![1]!;
    const images = overlay.images as { name: string; newName: string; newTag: string }[];
    const image = (name: string) => images.find((i) => i.name === name)!;
    expect(`${image('orbit-mcp').newName.replace('localhost/', '')}:${image('orbit-mcp').newTag}`).toBe(
      tag('ORBIT_TAG'),
    );
    expect(
      `${image('valkey/valkey').newName.replace('localhost/', '')}:${image('valkey/valkey').newTag}`,
    ).toBe(tag('STORE_TAG'));
    expect(podSpec(named('Deployment', 'valkey')).containers[0]!.image.split(':')[0]).toBe('valkey/valkey');
  });

  it('patches only what exists in the base', () => {
    for (const file of overlay.patchesStrategicMerge as string[])
      for (const patch of read(CI, file))
        expect(() => named(String(patch.kind), String((patch.metadata as Json).name))).not.toThrow();
  });
});
