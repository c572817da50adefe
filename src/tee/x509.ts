import { X509Certificate } from 'node:crypto';
import { TeeFormatError } from './bytes.js';

/** A root a chain may end at: its name is what the result reports. */
export interface TrustAnchor {
  name: string;
  pem: string;
}

const PEM_BEGIN = '-----BEGIN CERTIFICATE-----';
const PEM_END = '-----END CERTIFICATE-----';

/** Each BEGIN ... END block, found by a forward scan (a lazy regex rescans the rest for every BEGIN). */
function pemBlocks(text: string): string[] | undefined {
  const blocks: string[] = [];
  let at = 0;
  for (;;) {
    const begin = text.indexOf(PEM_BEGIN, at);
    if (begin < 0) break;
    const end = text.indexOf(PEM_END, begin + PEM_BEGIN.length + 1);
    if (end < 0) break;
    at = end + PEM_END.length;
    blocks.push(text.slice(begin, at));
  }
  return blocks.length > 0 ? blocks : undefined;
}

/** Certificates from PEM text, or from concatenated DER (some quote samples carry DER). */
export function parseCertificates(data: Uint8Array | string, what: string): X509Certificate[] {
  const text = typeof data === 'string' ? data : new TextDecoder().decode(data);
  const blocks = pemBlocks(text);
  try {
    if (blocks) return blocks.map((pem) => new X509Certificate(pem));
    if (typeof data !== 'string') return splitDer(data).map((der) => new X509Certificate(der));
  } catch (error) {
    throw new TeeFormatError(
      `${what} holds a certificate that does not parse: ${error instanceof Error ? error.message : String(error)}`,
    );
  }
  throw new TeeFormatError(`${what} holds no certificate.`);
}

/** Splits back-to-back DER SEQUENCEs by their length headers. */
function splitDer(bytes: Uint8Array): Uint8Array[] {
  const out: Uint8Array[] = [];
  let at = 0;
  while (at < bytes.length && bytes[at] === 0x30) {
    const first = bytes[at + 1] ?? 0;
    let length = first;
    let header = 2;
    if (first & 0x80) {
      const count = first & 0x7f;
      length = 0;
      for (let i = 0; i < count; i++) length = length * 256 + (bytes[at + 2 + i] ?? 0);
      header = 2 + count;
    }
    out.push(bytes.subarray(at, at + header + length));
    at += header + length;
  }
  if (out.length === 0) throw new TeeFormatError('The certificate data is neither PEM nor DER.');
  return out;
}

export type ChainResult =
  | { ok: true; anchor: string; length: number; leaf: X509Certificate }
  | { ok: false; reason: string };

/**
 * Verifies a chain given leaf first: each certificate is valid at `now` and signed by the next,
 * every issuer is a CA, and the last one either is a trust anchor or is signed by one. Revocation is
 * not looked at (that needs the vendors' CRL or OCSP services).
 */
export function verifyChain(
  certs: X509Certificate[],
  anchors: readonly TrustAnchor[],
  now: Date,
): ChainResult {
  const leaf = certs[0];
  if (!leaf) return { ok: false, reason: 'The chain is empty.' };
  const roots = anchors.map((anchor) => ({ name: anchor.name, cert: new X509Certificate(anchor.pem) }));
  for (const [index, cert] of certs.entries()) {
    const expired = validityProblem(cert, now);
    if (expired) return { ok: false, reason: expired };
    const root = roots.find((r) => r.cert.raw.equals(cert.raw));
    if (root) return { ok: true, anchor: root.name, length: index + 1, leaf };
    const issuer = certs[index + 1];
    if (issuer) {
      const problem = issuerProblem(cert, issuer);
      if (problem) return { ok: false, reason: problem };
      continue;
    }
    const signer = roots.find((r) => !issuerProblem(cert, r.cert));
    if (signer && !validityProblem(signer.cert, now)) {
      return { ok: true, anchor: signer.name, length: index + 2, leaf };
    }
    return {
      ok: false,
      reason: `The chain ends at "${cert.subject.replace(/\n/g, ', ')}", which is not a trusted root (${
        roots.map((r) => r.name).join(', ') || 'none given'
      }).`,
    };
  }
  return { ok: false, reason: 'The chain is empty.' };
}

function issuerProblem(cert: X509Certificate, issuer: X509Certificate): string | undefined {
  const name = cert.subject.replace(/\n/g, ', ');
  if (!issuer.ca) return `The issuer of "${name}" is not a CA certificate.`;
  if (!cert.checkIssued(issuer)) return `"${name}" does not name the next certificate as its issuer.`;
  if (!cert.verify(issuer.publicKey))
    return `The signature on "${name}" does not verify with its issuer's key.`;
  return undefined;
}

function validityProblem(cert: X509Certificate, now: Date): string | undefined {
  const from = new Date(cert.validFrom);
  const to = new Date(cert.validTo);
  if (now < from || now > to) {
    const name = cert.subject.replace(/\n/g, ', ');
    return `"${name}" is valid from ${from.toISOString()} to ${to.toISOString()}, not at ${now.toISOString()}.`;
  }
  return undefined;
}

/** The raw uncompressed EC point (0x04 || x || y) of a certificate's public key. */
export function ecPublicKey(cert: X509Certificate): Uint8Array {
  const jwk = cert.publicKey.export({ format: 'jwk' });
  if (jwk.kty !== 'EC' || !jwk.x || !jwk.y) throw new TeeFormatError('The certificate key is not an EC key.');
  const x = Buffer.from(jwk.x, 'base64url');
  const y = Buffer.from(jwk.y, 'base64url');
  return new Uint8Array(Buffer.concat([Buffer.of(4), x, y]));
}

/** `P-256`, `P-384`, ... as the certificate's JWK names the curve. */
export function ecCurve(cert: X509Certificate): string | undefined {
  return cert.publicKey.export({ format: 'jwk' }).crv;
}
