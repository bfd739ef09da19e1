import { createPrivateKey, createPublicKey, type KeyObject } from 'node:crypto';
import { LocalFileError, readRegularFile } from '../local-files';
import { keyIdOf, type SigningKey } from './attestation';

/** A signing or verification key that cannot be used: the message never holds the key's text. */
export class KeyError extends Error {
  override name = 'KeyError';
}

/** A PEM key is small: anything larger is not one. */
const MAX_KEY_BYTES = 64 * 1024;

/** The PEM text `source` names: `env:NAME` an environment variable, anything else a file. */
function pemFrom(source: string, subject: string, env: NodeJS.ProcessEnv, from: string): string {
  if (source.startsWith('env:')) {
    const name = source.slice('env:'.length);
    const value = env[name];
    if (!name) throw new KeyError(`${subject}: env: needs the name of an environment variable (env:DBSI_SIGNING_KEY)`);
    if (!value?.trim()) throw new KeyError(`${subject}: the environment variable ${name} is not set or empty`);
    return value;
  }
  try {
    return readRegularFile(source, subject, MAX_KEY_BYTES, from).toString('utf8');
  } catch (e) {
    if (e instanceof LocalFileError) throw new KeyError(e.message);
    throw e;
  }
}

const where = (source: string) => (source.startsWith('env:') ? `the variable ${source.slice(4)}` : source);

/** --sign KEY: an Ed25519 private key in PEM (PKCS#8), from a file or from `env:NAME`. */
export function loadSigningKey(source: string, env: NodeJS.ProcessEnv, from: string): SigningKey {
  const pem = pemFrom(source, '--sign', env, from);
  let key: KeyObject;
  try {
    key = createPrivateKey({ key: pem, format: 'pem' });
  } catch {
    throw new KeyError(`--sign: ${where(source)} holds no private key in PEM (-----BEGIN PRIVATE KEY-----)`);
  }
  if (key.asymmetricKeyType !== 'ed25519')
    throw new KeyError(`--sign: ${where(source)} holds an ${key.asymmetricKeyType} key, not an Ed25519 key`);
  return { key, keyid: keyIdOf(key) };
}

/** verify --key FILE: an Ed25519 public key in PEM (SPKI, -----BEGIN PUBLIC KEY-----), from a file or `env:NAME`. */
export function loadPublicKey(source: string, env: NodeJS.ProcessEnv, from: string): KeyObject {
  const pem = pemFrom(source, '--key', env, from);
  if (/-----BEGIN [A-Z ]*PRIVATE KEY-----/.test(pem))
    throw new KeyError(`--key: ${where(source)} holds a private key: give the public key (openssl pkey -pubout)`);
  let key: KeyObject;
  try {
    key = createPublicKey({ key: pem, format: 'pem' });
  } catch {
    throw new KeyError(`--key: ${where(source)} holds no public key in PEM (-----BEGIN PUBLIC KEY-----)`);
  }
  if (key.asymmetricKeyType !== 'ed25519')
    throw new KeyError(`--key: ${where(source)} holds an ${key.asymmetricKeyType} key, not an Ed25519 key`);
  return key;
}

/** The private key's PEM body as one line: scanned for in every artifact, like a configured secret. */
export function signingKeySecret(k: SigningKey): { name: string; value: string } {
  const der = k.key.export({ type: 'pkcs8', format: 'der' });
  return { name: 'the --sign private key', value: der.toString('base64') };
}
