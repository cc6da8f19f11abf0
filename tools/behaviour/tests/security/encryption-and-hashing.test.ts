import {expect} from 'vitest';
import {claim, fragment, compileModule, nest} from '../../lib';

const page = 'docs/security/encryption-and-hashing.md';

const {encrypt} = compileModule(
  fragment(page, 'encryption', 'export async function encrypt').value,
  'encrypt',
);
const {decrypt} = compileModule(
  fragment(page, 'encryption', 'export async function decrypt').value,
  'decrypt',
);

claim(
  `${page}#encryption`,
  'decrypt() with the same password and IV returns the text that encrypt() took',
  async () => {
    const {iv, encrypted} = await encrypt('API key 1234', 'a password');
    expect(await decrypt(encrypted, iv, 'a password')).toBe('API key 1234');
  },
);

claim(
  `${page}#encryption`,
  'every call draws a fresh 16-byte IV, so the same text encrypts differently; the wrong password gives garbage, not an error',
  async () => {
    const first = await encrypt('same text', 'pw');
    const second = await encrypt('same text', 'pw');
    expect(first.iv).toHaveLength(16);
    expect(first.iv.equals(second.iv)).toBe(false);
    expect(first.encrypted.equals(second.encrypted)).toBe(false);
    expect(await decrypt(first.encrypted, first.iv, 'other pw')).not.toBe('same text');
  },
);

claim(
  `${page}#encryption`,
  'CTR mode has no integrity: a flipped ciphertext bit decrypts without error to altered text',
  async () => {
    const {iv, encrypted} = await encrypt('pay 100 EUR', 'pw');
    encrypted[4] ^= 0x01;
    const tampered = await decrypt(encrypted, iv, 'pw');
    expect(tampered).not.toBe('pay 100 EUR');
    expect(tampered).toHaveLength('pay 100 EUR'.length);
  },
);

claim(
  `${page}#encryption`,
  'aes-256-gcm, the authenticated mode the page recommends, rejects the same tampering when its tag is verified',
  async () => {
    const crypto = nest('crypto');
    const key = crypto.randomBytes(32);
    const iv = crypto.randomBytes(12);
    const cipher = crypto.createCipheriv('aes-256-gcm', key, iv);
    const encrypted = Buffer.concat([cipher.update('pay 100 EUR'), cipher.final()]);
    const tag = cipher.getAuthTag();
    encrypted[4] ^= 0x01;
    const decipher = crypto.createDecipheriv('aes-256-gcm', key, iv);
    decipher.setAuthTag(tag);
    decipher.update(encrypted);
    expect(() => decipher.final()).toThrow(/authenticate/);
  },
);
