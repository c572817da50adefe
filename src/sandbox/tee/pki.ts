import { makeCertificate } from './certificates.js';
import { derivedKey, type EcKey } from './keys.js';

/** A root certificate a verifier may choose to trust, named as results will show it. */
export interface SandboxRoot {
  name: string;
  pem: string;
}

/**
 * The sandbox's stand-ins for Intel's PCK hierarchy (root -> platform CA -> PCK certificate, P-256)
 * and NVIDIA's device hierarchy (root -> provisioner CA -> GPU device, P-384), plus a rogue copy
 * of each whose root has the same name but another key, for the "broken chain" corruptions.
 */
export interface SandboxPki {
  intelRoot: SandboxRoot;
  nvidiaRoot: SandboxRoot;
  /** The PCK certificate's key signs the QE report. */
  pckKey: EcKey;
  /** PEM: PCK certificate, platform CA, root (leaf first, as quotes carry it). */
  pckChain: string;
  roguePckChain: string;
  /** The GPU device certificate's key signs the SPDM evidence. */
  deviceKey: EcKey;
  /** PEM: device certificate, provisioner CA, root. */
  deviceChain: string;
  rogueDeviceChain: string;
}

const DAY_MS = 86_400_000;
const YEAR_MS = 365 * DAY_MS;

export function buildPki(now: number): SandboxPki {
  // Whole seconds a day back, so the same clock gives byte-identical certificates.
  const from = new Date(Math.floor((now - DAY_MS) / 1000) * 1000);
  const until = (years: number) => new Date(from.getTime() + years * YEAR_MS);
  let serial = 0;
  const chain = (
    names: [string, string, string],
    curve: 'P-256' | 'P-384',
    rootLabel: string,
    leafKey: EcKey,
  ) => {
    const rootKey = derivedKey(rootLabel, curve);
    const caKey = derivedKey(`${rootLabel}/ca`, curve);
    const [rootName, caName, leafName] = names;
    const base = { notBefore: from };
    const root = makeCertificate({
      ...base,
      subject: rootName,
      issuer: rootName,
      key: rootKey,
      issuerKey: rootKey,
      serial: ++serial,
      ca: true,
      notAfter: until(30),
    });
    const ca = makeCertificate({
      ...base,
      subject: caName,
      issuer: rootName,
      key: caKey,
      issuerKey: rootKey,
      serial: ++serial,
      ca: true,
      notAfter: until(25),
    });
    const leaf = makeCertificate({
      ...base,
      subject: leafName,
      issuer: caName,
      key: leafKey,
      issuerKey: caKey,
      serial: ++serial,
      ca: false,
      notAfter: until(20),
    });
    return { root, pem: `${leaf}${ca}${root}` };
  };

  const intelNames: [string, string, string] = [
    'Orbit Sandbox SGX Root CA',
    'Orbit Sandbox SGX PCK Platform CA',
    'Orbit Sandbox SGX PCK Certificate',
  ];
  const nvidiaNames: [string, string, string] = [
    'Orbit Sandbox Device Identity CA',
    'Orbit Sandbox GPU Provisioner CA',
    'Orbit Sandbox GPU Device',
  ];
  const pckKey = derivedKey('pck', 'P-256');
  const deviceKey = derivedKey('gpu-device', 'P-384');
  const intel = chain(intelNames, 'P-256', 'sgx-root', pckKey);
  const nvidia = chain(nvidiaNames, 'P-384', 'gpu-root', deviceKey);
  return {
    intelRoot: { name: 'Orbit Sandbox SGX Root CA (sandbox only)', pem: intel.root },
    nvidiaRoot: { name: 'Orbit Sandbox Device Identity CA (sandbox only)', pem: nvidia.root },
    pckKey,
    pckChain: intel.pem,
    roguePckChain: chain(intelNames, 'P-256', 'rogue-sgx-root', pckKey).pem,
    deviceKey,
    deviceChain: nvidia.pem,
    rogueDeviceChain: chain(nvidiaNames, 'P-384', 'rogue-gpu-root', deviceKey).pem,
  };
}
