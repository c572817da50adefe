import type { TrustAnchor } from './x509.js';

/**
 * Intel SGX Root CA (also the root of TDX PCK chains): CN=Intel SGX Root CA, O=Intel Corporation,
 * valid 2018-05-21 to 2049-12-31, SHA-256 fingerprint 44:A0:19:6B:...:B6:74:D3. Intel publishes it at
 * https://certificates.trustedservices.intel.com/Intel_SGX_Provisioning_Certification_RootCA.pem.
 * This copy was taken from the root of the PCK chain in a real TDX quote published as a sample by
 * Phala-Network/dcap-qvl (`sample/tdx-quote.hex`, commit 2b5103d8); its public key equals the one
 * Intel pins in its Quote Verification Enclave (intel/SGXDataCenterAttestationPrimitives,
 * `QuoteVerification/QvE/Enclave/qve.cpp`, `INTEL_ROOT_PUB_KEY`), which a unit test checks.
 */
export const INTEL_SGX_ROOT_CA: TrustAnchor = {
  name: 'Intel SGX Root CA',
  pem: `-----BEGIN CERTIFICATE-----
MIICjzCCAjSgAwIBAgIUImUM1lqdNInzg7SVUr9QGzknBqwwCgYIKoZIzj0EAwIw
aDEaMBgGA1UEAwwRSW50ZWwgU0dYIFJvb3QgQ0ExGjAYBgNVBAoMEUludGVsIENv
cnBvcmF0aW9uMRQwEgYDVQQHDAtTYW50YSBDbGFyYTELMAkGA1UECAwCQ0ExCzAJ
BgNVBAYTAlVTMB4XDTE4MDUyMTEwNDUxMFoXDTQ5MTIzMTIzNTk1OVowaDEaMBgG
A1UEAwwRSW50ZWwgU0dYIFJvb3QgQ0ExGjAYBgNVBAoMEUludGVsIENvcnBvcmF0
aW9uMRQwEgYDVQQHDAtTYW50YSBDbGFyYTELMAkGA1UECAwCQ0ExCzAJBgNVBAYT
AlVTMFkwEwYHKoZIzj0CAQYIKoZIzj0DAQcDQgAEC6nEwMDIYZOj/iPWsCzaEKi7
1OiOSLRFhWGjbnBVJfVnkY4u3IjkDYYL0MxO4mqsyYjlBalTVYxFP2sJBK5zlKOB
uzCBuDAfBgNVHSMEGDAWgBQiZQzWWp00ifODtJVSv1AbOScGrDBSBgNVHR8ESzBJ
MEegRaBDhkFodHRwczovL2NlcnRpZmljYXRlcy50cnVzdGVkc2VydmljZXMuaW50
ZWwuY29tL0ludGVsU0dYUm9vdENBLmRlcjAdBgNVHQ4EFgQUImUM1lqdNInzg7SV
Ur9QGzknBqwwDgYDVR0PAQH/BAQDAgEGMBIGA1UdEwEB/wQIMAYBAf8CAQEwCgYI
KoZIzj0EAwIDSQAwRgIhAOW/5QkR+S9CiSDcNoowLuPRLsWGf/Yi7GSX94BgwTwg
AiEA4J0lrHoMs+Xo5o/sX6O9QWxHRAvZUGOdRQ7cvqRXaqI=
-----END CERTIFICATE-----`,
};

/**
 * NVIDIA Device Identity CA: the root of every GPU's device certificate chain (CN=NVIDIA Device
 * Identity CA, O=NVIDIA, P-384, valid from 2021-11-05, SHA-256 fingerprint 10:2B:F6:59:...:16:7B:48).
 * Copied from NVIDIA's local GPU verifier, NVIDIA/nvtrust
 * `guest_tools/gpu_verifiers/local_gpu_verifier/src/verifier/certs/verifier_device_root.pem`
 * (commit 77e4b866).
 */
const NVIDIA_DEVICE_IDENTITY_CA: TrustAnchor = {
  name: 'NVIDIA Device Identity CA',
  pem: `-----BEGIN CERTIFICATE-----
MIICCzCCAZCgAwIBAgIQLTZwscoQBBHB/sDoKgZbVDAKBggqhkjOPQQDAzA1MSIw
IAYDVQQDDBlOVklESUEgRGV2aWNlIElkZW50aXR5IENBMQ8wDQYDVQQKDAZOVklE
SUEwIBcNMjExMTA1MDAwMDAwWhgPOTk5OTEyMzEyMzU5NTlaMDUxIjAgBgNVBAMM
GU5WSURJQSBEZXZpY2UgSWRlbnRpdHkgQ0ExDzANBgNVBAoMBk5WSURJQTB2MBAG
ByqGSM49AgEGBSuBBAAiA2IABA5MFKM7+KViZljbQSlgfky/RRnEQScW9NDZF8SX
gAW96r6u/Ve8ZggtcYpPi2BS4VFu6KfEIrhN6FcHG7WP05W+oM+hxj7nyA1r1jkB
2Ry70YfThX3Ba1zOryOP+MJ9vaNjMGEwDwYDVR0TAQH/BAUwAwEB/zAOBgNVHQ8B
Af8EBAMCAQYwHQYDVR0OBBYEFFeF/4PyY8xlfWi3Olv0jUrL+0lfMB8GA1UdIwQY
MBaAFFeF/4PyY8xlfWi3Olv0jUrL+0lfMAoGCCqGSM49BAMDA2kAMGYCMQCPeFM3
TASsKQVaT+8S0sO9u97PVGCpE9d/I42IT7k3UUOLSR/qvJynVOD1vQKVXf0CMQC+
EY55WYoDBvs2wPAH1Gw4LbcwUN8QCff8bFmV4ZxjCRr4WXTLFHBKjbfneGSBWwA=
-----END CERTIFICATE-----`,
};

/** Roots an attestation chain may end at. A caller adds the sandbox's roots only for the sandbox. */
export interface TrustedRoots {
  intel: readonly TrustAnchor[];
  nvidia: readonly TrustAnchor[];
}

/** The vendors' real roots: what the verifier trusts unless told otherwise. */
export const PINNED_ROOTS: TrustedRoots = {
  intel: [INTEL_SGX_ROOT_CA],
  nvidia: [NVIDIA_DEVICE_IDENTITY_CA],
};
