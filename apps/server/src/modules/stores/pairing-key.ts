import { randomInt } from 'node:crypto';

/** Uppercase letters and digits a person cannot confuse when typing them on a tablet (no I, O, 0, 1). */
export const pairingKeyAlphabet = 'ABCDEFGHJKLMNPQRSTUVWXYZ23456789';
export const pairingKeyLength = 10;

/** A new pairing key from the CSPRNG: 10 characters of a 32-symbol alphabet (50 bits). */
export function newPairingKey(): string {
  let key = '';
  for (let index = 0; index < pairingKeyLength; index++) {
    key += pairingKeyAlphabet[randomInt(pairingKeyAlphabet.length)];
  }
  return key;
}
