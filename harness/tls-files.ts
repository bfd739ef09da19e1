import { createPrivateKey, X509Certificate, type KeyObject } from 'node:crypto';
import { LocalFileError, MAX_INPUT_FILE_BYTES, readRegularFile } from './local-files';

/**
 * The TLS files of a configuration, checked before anything is sent: each readable, a regular
 * file, in PEM; the CA file holds certificates; the client key is not encrypted and belongs to the
 * client certificate. A problem names the key (`http.tls.keyFile`) and what is wrong. A relative path is taken
 * from the current folder (the package root, under npm), and a file not found there names that folder.
 */

export interface TlsFiles {
  caFile?: string;
  certFile?: string;
  keyFile?: string;
}

const PEM_BLOCK = /-----BEGIN ([A-Z0-9 ]+)-----[\s\S]*?-----END \1-----/g;

function pemBlocks(text: string): Array<{ label: string; pem: string }> {
  return [...text.matchAll(PEM_BLOCK)].map((m) => ({ label: m[1]!, pem: m[0] }));
}

function certificates(path: string, key: string): X509Certificate[] {
  const subject = `"http.tls.${key}"`;
  const blocks = pemBlocks(readRegularFile(path, subject, MAX_INPUT_FILE_BYTES, process.cwd()).toString('latin1'));
  if (!blocks.length)
    throw new LocalFileError(
      subject,
      `${path} is not in PEM format (no -----BEGIN CERTIFICATE----- block); convert a DER ` +
        `file with: openssl x509 -inform der -in FILE -out FILE.pem`,
    );
  const certs = blocks.filter((b) => b.label === 'CERTIFICATE');
  if (!certs.length)
    throw new LocalFileError(
      subject,
      `${path} holds ${blocks.map((b) => b.label.toLowerCase()).join(', ')}, not a ` +
        `certificate${
          key === 'certFile' && blocks.some((b) => /PRIVATE KEY/.test(b.label))
            ? ' (are http.tls.certFile and ' + 'http.tls.keyFile swapped?)'
            : ''
        }`,
    );
  return certs.map((b, i) => {
    try {
      return new X509Certificate(b.pem);
    } catch (e) {
      throw new LocalFileError(subject, `certificate ${i + 1} in ${path} cannot be parsed (${(e as Error).message})`);
    }
  });
}

function privateKey(path: string): KeyObject {
  const subject = '"http.tls.keyFile"';
  const blocks = pemBlocks(readRegularFile(path, subject, MAX_INPUT_FILE_BYTES, process.cwd()).toString('latin1'));
  if (!blocks.length)
    throw new LocalFileError(subject, `${path} is not in PEM format (no -----BEGIN … ` + `PRIVATE KEY----- block)`);
  const key = blocks.find((b) => /PRIVATE KEY$/.test(b.label));
  if (!key)
    throw new LocalFileError(
      subject,
      `${path} holds ${blocks.map((b) => b.label.toLowerCase()).join(', ')}, not a private ` +
        `key${
          blocks.some((b) => b.label === 'CERTIFICATE')
            ? ' (are http.tls.certFile and ' + 'http.tls.keyFile swapped?)'
            : ''
        }`,
    );
  if (/ENCRYPTED/.test(key.label) || /Proc-Type: 4,ENCRYPTED/.test(key.pem))
    throw new LocalFileError(
      subject,
      `${path} holds an encrypted private key; give it unencrypted (openssl pkey -in ` +
        `FILE -out FILE.plain.pem): the suite has no passphrase option`,
    );
  try {
    return createPrivateKey({ key: key.pem, format: 'pem' });
  } catch (e) {
    throw new LocalFileError(subject, `the private key in ${path} cannot be read (${(e as Error).message})`);
  }
}

/** Check the configured TLS files; throws LocalFileError naming the key. */
export function checkTlsFiles(tls: TlsFiles): void {
  if (tls.caFile) certificates(tls.caFile, 'caFile');
  const cert = tls.certFile ? certificates(tls.certFile, 'certFile')[0] : undefined;
  const key = tls.keyFile ? privateKey(tls.keyFile) : undefined;
  if (cert && key && !cert.checkPrivateKey(key)) {
    throw new LocalFileError(
      '"http.tls.keyFile"',
      `the private key in ${tls.keyFile} does not belong to the certificate in ` +
        `http.tls.certFile (${tls.certFile}, subject ${cert.subject.replace(/\n/g, ', ')})`,
    );
  }
}
