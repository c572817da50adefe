import { createHash, createPublicKey } from 'node:crypto';
import * as asn1js from 'asn1js';
import * as pkijs from 'pkijs';
import { type EcKey, signDer } from './keys.js';

/**
 * X.509 certificates for the sandbox's attestation chains, encoded with pkijs. They are signed
 * with noble's deterministic ECDSA rather than WebCrypto's randomised one, so a sandbox makes the
 * same certificates every run (pkijs only encodes; the signature value is set directly).
 */
export interface CertificateSpec {
  subject: string;
  issuer: string;
  /** The subject's key (public part used). */
  key: EcKey;
  /** The issuer's key (signs); the subject's own key for a self-signed root. */
  issuerKey: EcKey;
  serial: number;
  ca: boolean;
  notBefore: Date;
  notAfter: Date;
}

const OID = {
  commonName: '2.5.4.3',
  organization: '2.5.4.10',
  basicConstraints: '2.5.29.19',
  keyUsage: '2.5.29.15',
  subjectKeyId: '2.5.29.14',
  authorityKeyId: '2.5.29.35',
  ecdsaSha256: '1.2.840.10045.4.3.2',
  ecdsaSha384: '1.2.840.10045.4.3.3',
};

/** Returns the certificate as PEM. */
export function makeCertificate(spec: CertificateSpec): string {
  const cert = new pkijs.Certificate();
  cert.version = 2;
  cert.serialNumber = new asn1js.Integer({ value: spec.serial });
  cert.issuer = distinguishedName(spec.issuer);
  cert.subject = distinguishedName(spec.subject);
  cert.notBefore = validityTime(spec.notBefore);
  cert.notAfter = validityTime(spec.notAfter);
  cert.subjectPublicKeyInfo = pkijs.PublicKeyInfo.fromBER(spki(spec.key));
  cert.extensions = [
    extension(OID.basicConstraints, true, new pkijs.BasicConstraints({ cA: spec.ca }).toSchema()),
    // keyCertSign + cRLSign for a CA (bits 5, 6), digitalSignature (bit 0) for a leaf.
    extension(
      OID.keyUsage,
      true,
      spec.ca
        ? new asn1js.BitString({ valueHex: Uint8Array.of(0x06), unusedBits: 1 })
        : new asn1js.BitString({ valueHex: Uint8Array.of(0x80), unusedBits: 7 }),
    ),
    extension(OID.subjectKeyId, false, new asn1js.OctetString({ valueHex: keyId(spec.key) })),
    extension(
      OID.authorityKeyId,
      false,
      new pkijs.AuthorityKeyIdentifier({
        keyIdentifier: new asn1js.OctetString({ valueHex: keyId(spec.issuerKey) }),
      }).toSchema(),
    ),
  ];
  const algorithm = new pkijs.AlgorithmIdentifier({
    algorithmId: spec.issuerKey.curve === 'P-384' ? OID.ecdsaSha384 : OID.ecdsaSha256,
  });
  cert.signature = algorithm;
  cert.signatureAlgorithm = algorithm;
  cert.tbsView = new Uint8Array(cert.encodeTBS().toBER());
  cert.signatureValue = new asn1js.BitString({ valueHex: signDer(spec.issuerKey, cert.tbsView) });
  const der = Buffer.from(cert.toSchema().toBER());
  const lines = der.toString('base64').match(/.{1,64}/g) ?? [];
  return `-----BEGIN CERTIFICATE-----\n${lines.join('\n')}\n-----END CERTIFICATE-----\n`;
}

/** RFC 5280 §4.1.2.5: UTCTime through 2049, GeneralizedTime from 2050. */
function validityTime(value: Date): pkijs.Time {
  return new pkijs.Time({ type: value.getUTCFullYear() < 2050 ? 0 : 1, value });
}

/**
 * `CN=..., O=...` with one attribute per RDN, as CAs write names (pkijs would put both in one
 * multi-valued RDN, so the name is encoded here and handed to pkijs already encoded).
 */
function distinguishedName(commonName: string): pkijs.RelativeDistinguishedNames {
  const attribute = (type: string, value: string) =>
    new asn1js.Set({
      value: [new pkijs.AttributeTypeAndValue({ type, value: new asn1js.Utf8String({ value }) }).toSchema()],
    });
  const name = new asn1js.Sequence({
    value: [attribute(OID.commonName, commonName), attribute(OID.organization, 'Orbit Sandbox')],
  });
  return pkijs.RelativeDistinguishedNames.fromBER(name.toBER(false));
}

function extension(extnID: string, critical: boolean, value: asn1js.BaseBlock): pkijs.Extension {
  return new pkijs.Extension({ extnID, critical, extnValue: value.toBER(false) });
}

/** SubjectPublicKeyInfo DER of an uncompressed EC point (Node builds it from the JWK). */
function spki(key: EcKey): Uint8Array<ArrayBuffer> {
  const size = key.curve === 'P-384' ? 48 : 32;
  const jwk = {
    kty: 'EC',
    crv: key.curve,
    x: Buffer.from(key.publicKey.subarray(1, 1 + size)).toString('base64url'),
    y: Buffer.from(key.publicKey.subarray(1 + size)).toString('base64url'),
  };
  return Uint8Array.from(
    createPublicKey({ key: jwk, format: 'jwk' }).export({ type: 'spki', format: 'der' }),
  );
}

/** RFC 5280 method 1 key identifier: SHA-1 of the public key bits. */
function keyId(key: EcKey): Uint8Array {
  return createHash('sha1').update(key.publicKey).digest();
}
