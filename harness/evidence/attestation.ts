import { createHash, createPublicKey, sign, verify, type KeyObject } from 'node:crypto';
import type { BundleEntry } from './bundle';

/**
 * The evidence bundle's signed attestation (issue 35): an in-toto Statement v1 whose subjects are every
 * other file of the bundle with its SHA-256, and whose predicate says what the run found, in a DSSE
 * envelope signed with Ed25519 (https://github.com/secure-systems-lab/dsse, protocol.md and envelope.md).
 * The format is the standard one, so that a tool the suite did not write can verify it.
 */
export const PAYLOAD_TYPE = 'application/vnd.in-toto+json';
export const STATEMENT_TYPE = 'https://in-toto.io/Statement/v1';
export const PREDICATE_TYPE = 'https://dbsi-conformance.dev/attestation/conformance-run/v1';
/** The envelope's name inside the bundle (the one file that is not a subject of its own statement). */
export const ATTESTATION_ENTRY = 'ATTESTATION.dsse.json';

/** What the predicate carries: the run's verdict, its target, the spec's digest, the suite's version and the seed. */
export interface ConformancePredicate {
  verdict: string;
  exitCode: number;
  headline?: string;
  target: {
    name: string;
    embedded: boolean;
    baseUrl: string;
    authBaseUrl: string;
    transfersBaseUrl: string;
    faults: string[];
  };
  spec: { file: string; sha256: string };
  suiteVersion: string;
  seed: number;
  strict: boolean;
  startedAt: string;
}

export interface Statement {
  _type: typeof STATEMENT_TYPE;
  subject: Array<{ name: string; digest: { sha256: string } }>;
  predicateType: string;
  predicate: ConformancePredicate;
}

export interface Envelope {
  payload: string;
  payloadType: string;
  signatures: Array<{ keyid?: string; sig: string }>;
}

/** The key that signs, and the id its envelope names it by. */
export interface SigningKey {
  key: KeyObject;
  keyid: string;
}

/** DSSE's Pre-Authentication Encoding: "DSSEv1" SP LEN(type) SP type SP LEN(body) SP body, lengths in bytes. */
export function pae(payloadType: string, body: Buffer): Buffer {
  const type = Buffer.from(payloadType, 'utf8');
  return Buffer.concat([
    Buffer.from(`DSSEv1 ${type.length} `, 'ascii'),
    type,
    Buffer.from(` ${body.length} `, 'ascii'),
    body,
  ]);
}

/** A public key's id: the SHA-256 of its SubjectPublicKeyInfo (DER), in hex. */
export function keyIdOf(key: KeyObject): string {
  const pub = key.type === 'private' ? createPublicKey(key) : key;
  return createHash('sha256')
    .update(pub.export({ type: 'spki', format: 'der' }))
    .digest('hex');
}

export function statementFor(entries: BundleEntry[], predicate: ConformancePredicate): Statement {
  return {
    _type: STATEMENT_TYPE,
    subject: entries.map((e) => ({
      name: e.name,
      digest: { sha256: createHash('sha256').update(e.data).digest('hex') },
    })),
    predicateType: PREDICATE_TYPE,
    predicate,
  };
}

/** The statement signed in a DSSE envelope (Ed25519 over the PAE of its payload type and its JSON). */
export function signStatement(statement: Statement, signer: SigningKey): Envelope {
  const body = Buffer.from(JSON.stringify(statement), 'utf8');
  const sig = sign(null, pae(PAYLOAD_TYPE, body), signer.key);
  return {
    payload: body.toString('base64'),
    payloadType: PAYLOAD_TYPE,
    signatures: [{ keyid: signer.keyid, sig: sig.toString('base64') }],
  };
}

/** The attestation entry of a bundle whose other files are `entries`. */
export function attestationEntry(entries: BundleEntry[], predicate: ConformancePredicate, signer: SigningKey) {
  const envelope = signStatement(statementFor(entries, predicate), signer);
  return { name: ATTESTATION_ENTRY, data: Buffer.from(JSON.stringify(envelope, null, 2) + '\n') };
}

export interface Verification {
  /** Every reason the bundle is not verified, one line each, naming the file; empty when it is. */
  problems: string[];
  /** The signed statement, once its signature verified. */
  statement?: Statement;
  /** The keyid of the signature that verified. */
  keyid?: string;
}

const isEnvelope = (v: unknown): v is Envelope => {
  const e = v as Envelope;
  return (
    typeof e?.payload === 'string' &&
    typeof e.payloadType === 'string' &&
    Array.isArray(e.signatures) &&
    e.signatures.every((s) => typeof s?.sig === 'string')
  );
};

/** Whether the envelope carries a signature by `key` over its payload; the statement when it does. */
function checkEnvelope(data: Buffer, key: KeyObject): Verification {
  let envelope: unknown;
  try {
    envelope = JSON.parse(data.toString('utf8'));
  } catch {
    return { problems: [`${ATTESTATION_ENTRY}: not JSON, not a DSSE envelope`] };
  }
  if (!isEnvelope(envelope))
    return { problems: [`${ATTESTATION_ENTRY}: not a DSSE envelope (payload, payloadType, signatures[].sig)`] };
  if (envelope.payloadType !== PAYLOAD_TYPE)
    return { problems: [`${ATTESTATION_ENTRY}: payloadType is "${envelope.payloadType}", not ${PAYLOAD_TYPE}`] };
  const body = Buffer.from(envelope.payload, 'base64');
  const signed = pae(envelope.payloadType, body);
  const good = envelope.signatures.find((s) => {
    try {
      return verify(null, signed, key, Buffer.from(s.sig, 'base64'));
    } catch {
      return false;
    }
  });
  if (!good)
    return {
      problems: [
        `${ATTESTATION_ENTRY}: no signature verifies with the given public key (key id ${keyIdOf(key)}): ` +
          `signed with another key, or the attestation was changed after signing`,
      ],
    };
  let statement: Statement;
  try {
    statement = JSON.parse(body.toString('utf8')) as Statement;
  } catch {
    return { problems: [`${ATTESTATION_ENTRY}: the signed payload is not JSON`] };
  }
  if (statement?._type !== STATEMENT_TYPE || !Array.isArray(statement.subject))
    return { problems: [`${ATTESTATION_ENTRY}: the signed payload is not an in-toto Statement v1`] };
  return { problems: [], statement, keyid: good.keyid ?? keyIdOf(key) };
}

/**
 * Verify a bundle's files against its attestation: the signature with `key`, then every file's SHA-256
 * against the statement's subjects. Says every file changed, missing or added after signing.
 */
export function verifyEntries(entries: BundleEntry[], key: KeyObject): Verification {
  const envelopes = entries.filter((e) => e.name === ATTESTATION_ENTRY);
  if (envelopes.length === 0) return { problems: [`${ATTESTATION_ENTRY}: missing, the bundle is not signed`] };
  if (envelopes.length > 1) return { problems: [`${ATTESTATION_ENTRY}: the bundle holds ${envelopes.length}`] };
  const checked = checkEnvelope(envelopes[0]!.data, key);
  if (!checked.statement) return checked;
  const problems: string[] = [];
  const files = entries.filter((e) => e.name !== ATTESTATION_ENTRY);
  const seen = new Set<string>();
  for (const s of checked.statement.subject) {
    const name = String(s?.name);
    const expected = s?.digest?.sha256;
    const found = files.filter((f) => f.name === name);
    seen.add(name);
    if (typeof expected !== 'string') problems.push(`${name}: the attestation gives no sha256 digest`);
    else if (found.length === 0) problems.push(`${name}: signed, but missing from the bundle`);
    else if (found.length > 1) problems.push(`${name}: the bundle holds ${found.length} files of this name`);
    else {
      const actual = createHash('sha256').update(found[0]!.data).digest('hex');
      if (actual !== expected.toLowerCase())
        problems.push(`${name}: changed after signing (sha256 ${actual}, signed ${expected})`);
    }
  }
  for (const f of files) if (!seen.has(f.name)) problems.push(`${f.name}: not signed (added after signing)`);
  return { ...checked, problems };
}
