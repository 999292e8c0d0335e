declare module 'http_ece' {
  import type { ECDH } from 'node:crypto';
  /** RFC 8188 / 8291 decryption (the subset the push tests use). */
  export function decrypt(
    buffer: Buffer,
    params: { version: 'aes128gcm'; privateKey: ECDH; authSecret: string },
  ): Buffer;
  const ece: { decrypt: typeof decrypt };
  export default ece;
}
