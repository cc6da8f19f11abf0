import {expect} from 'vitest';
import {claim, fragment, compileModule, nest, samples} from '../../lib';

const page = 'docs/security/encryption-and-hashing.md';
const crypto = nest('crypto');

const {encrypt, decrypt} = compileModule(
  fragment(page, 'encryption', 'export function encrypt').value,
  'encryption',
);
const {loadEncryptionKey} = compileModule(
  fragment(page, 'encryption', 'export function loadEncryptionKey').value,
  'encryption-key',
);
const {hashPassword, verifyPassword} = compileModule(
  fragment(page, 'hashing-with-scrypt', 'export async function hashPassword').value,
  'password-hash',
);

/** The key as the page loads it: ENCRYPTION_KEY holding 32 random bytes in base64. */
function withKey<T>(value: string | undefined, fn: () => T): T {
  const saved = process.env.ENCRYPTION_KEY;
  if (value === undefined) delete process.env.ENCRYPTION_KEY;
  else process.env.ENCRYPTION_KEY = value;
  try {
    return fn();
  } finally {
    if (saved === undefined) delete process.env.ENCRYPTION_KEY;
    else process.env.ENCRYPTION_KEY = saved;
  }
}
const key: Buffer = withKey(crypto.randomBytes(32).toString('base64'), () => loadEncryptionKey());
const refusedData = 'Unsupported state or unable to authenticate data';

claim(
  `${page}#encryption`,
  'decrypt() with the same key and context returns the text; the stored value is IV (12) + tag (16) + ciphertext',
  () => {
    const stored = encrypt('API key 1234', key, 'user:42');
    expect(stored).toHaveLength(12 + 16 + Buffer.byteLength('API key 1234'));
    expect(decrypt(stored, key, 'user:42')).toBe('API key 1234');
  },
);

claim(
  `${page}#encryption`,
  'every call draws a fresh IV, so the same text under the same key encrypts differently',
  () => {
    const first = encrypt('same text', key, 'user:1');
    const second = encrypt('same text', key, 'user:1');
    expect(first.subarray(0, 12).equals(second.subarray(0, 12))).toBe(false);
    expect(first.equals(second)).toBe(false);
  },
);

claim.abuse(
  `${page}#encryption`,
  'one flipped bit in the ciphertext: decryption throws "Unsupported state or unable to authenticate data" instead of returning altered text',
  () => {
    const stored = encrypt('pay 100 EUR', key, 'user:1');
    stored[12 + 16 + 4] ^= 0x01;
    expect(() => decrypt(stored, key, 'user:1')).toThrow(refusedData);
  },
);

claim.abuse(`${page}#encryption`, 'an altered IV or an altered tag: decryption throws', () => {
  for (const position of [0, 11, 12, 27]) {
    const stored = encrypt('pay 100 EUR', key, 'user:1');
    stored[position] ^= 0x80;
    expect(() => decrypt(stored, key, 'user:1'), `byte ${position}`).toThrow(refusedData);
  }
});

claim.abuse(
  `${page}#encryption`,
  "alice's encrypted value copied into bob's record: decryption with bob's context throws",
  () => {
    const alices = encrypt('sk_live_alice', key, 'user:1');
    expect(() => decrypt(alices, key, 'user:2')).toThrow(refusedData);
    expect(decrypt(alices, key, 'user:1')).toBe('sk_live_alice');
  },
);

claim.abuse(
  `${page}#encryption`,
  'another key: decryption throws, it does not return garbage',
  () => {
    const stored = encrypt('secret', key, 'user:1');
    expect(() => decrypt(stored, crypto.randomBytes(32), 'user:1')).toThrow(refusedData);
  },
);

claim.abuse(
  `${page}#encryption`,
  "a value cut inside its ciphertext fails in final() like a changed byte; an empty value makes createDecipheriv() throw 'Invalid initialization vector'",
  () => {
    const stored = encrypt('a longer secret', key, 'user:1');
    expect(() => decrypt(stored.subarray(0, stored.length - 3), key, 'user:1')).toThrow(
      refusedData,
    );
    expect(() => decrypt(stored.subarray(0, 12 + 8), key, 'user:1')).toThrow(
      'Invalid authentication tag length: 8',
    );
    expect(() => decrypt(Buffer.alloc(0), key, 'user:1')).toThrow('Invalid initialization vector');
  },
);

claim.abuse(
  `${page}#encryption`,
  'a value cut short (its tag down to 4 bytes) is refused by setAuthTag(); without authTagLength, Node.js accepts a tag cut to 4 bytes',
  () => {
    const stored = encrypt('secret', key, 'user:1');
    expect(() => decrypt(stored.subarray(0, 12 + 4), key, 'user:1')).toThrow(
      'Invalid authentication tag length: 4',
    );
    // What the option prevents: a valid tag cut to its first 4 bytes still verifies.
    const iv = stored.subarray(0, 12);
    const decipher = crypto.createDecipheriv('aes-256-gcm', key, iv);
    decipher.setAuthTag(stored.subarray(12, 16));
    decipher.setAAD(Buffer.from('user:1'));
    const text = Buffer.concat([decipher.update(stored.subarray(28)), decipher.final()]);
    expect(text.toString()).toBe('secret');
  },
);

claim.failure(
  `${page}#encryption`,
  'ENCRYPTION_KEY missing, empty, 16 bytes long, or a password instead of base64 bytes: loadEncryptionKey() throws its message',
  () => {
    for (const value of [
      undefined,
      '',
      crypto.randomBytes(16).toString('base64'),
      'correct horse battery staple',
    ]) {
      expect(() => withKey(value, () => loadEncryptionKey()), String(value)).toThrow(
        'ENCRYPTION_KEY must hold 32 random bytes, base64-encoded',
      );
    }
  },
);

claim.failure(
  `${page}#encryption`,
  'ENCRYPTION_KEY replaced: values stored under the old key throw with the new one, and decrypt again with the old key',
  () => {
    const oldKey = key;
    const newKey = withKey(crypto.randomBytes(32).toString('base64'), () => loadEncryptionKey());
    const stored = encrypt('sk_live_alice', oldKey, 'user:1');
    expect(() => decrypt(stored, newKey, 'user:1')).toThrow(refusedData);
    const reencrypted = encrypt(decrypt(stored, oldKey, 'user:1'), newKey, 'user:1');
    expect(decrypt(reencrypted, newKey, 'user:1')).toBe('sk_live_alice');
  },
);

claim.failure(
  `${page}#encryption`,
  'a key of the wrong length handed to encrypt() directly: createCipheriv throws RangeError "Invalid key length"',
  () => {
    expect(() => encrypt('text', crypto.randomBytes(16), 'user:1')).toThrow(RangeError);
    expect(() => encrypt('text', crypto.randomBytes(16), 'user:1')).toThrow('Invalid key length');
  },
);

claim.abuse(
  `${page}#encryption`,
  "a fixed salt such as 'salt' makes the key a function of the password alone (two runs, one key); the page's random salt gives different keys",
  () => {
    expect(
      crypto.scryptSync('hunter2', 'salt', 32).equals(crypto.scryptSync('hunter2', 'salt', 32)),
    ).toBe(true);
    const sample = fragment(page, 'encryption', 'scryptSync(password, salt, 32)').value;
    const derive = new Function(
      'require',
      'password',
      `${sample.replace(/^import (.*) from 'crypto';$/m, "const $1 = require('crypto');")}\nreturn key;`,
    );
    const first: Buffer = derive(nest, 'hunter2');
    const second: Buffer = derive(nest, 'hunter2');
    expect(first).toHaveLength(32);
    expect(first.equals(second)).toBe(false);
  },
);

claim(
  `${page}#hashing-with-scrypt`,
  'hashPassword() then verifyPassword(): true for the password, false for another one',
  async () => {
    const stored = await hashPassword('wonderland');
    expect(stored).toMatch(/^[A-Za-z0-9+/=]+:[A-Za-z0-9+/=]+$/);
    expect(await verifyPassword('wonderland', stored)).toBe(true);
    expect(await verifyPassword('Wonderland', stored)).toBe(false);
  },
);

claim.abuse(
  `${page}#hashing-with-scrypt`,
  'two users with the same password get different hashes (a fresh salt each time)',
  async () => {
    const [first, second] = await Promise.all([
      hashPassword('password1'),
      hashPassword('password1'),
    ]);
    expect(first).not.toBe(second);
    expect(await verifyPassword('password1', second)).toBe(true);
  },
);

claim.abuse(
  `${page}#hashing-with-scrypt`,
  'a stored value in another format (empty, no colon, a bcrypt hash, a short hash) matches nothing: false, never an exception',
  async () => {
    const salt = crypto.randomBytes(16).toString('base64');
    for (const stored of [
      '',
      'plain-text-password',
      '$2b$10$N9qo8uLOickgx2ZMRZoMyeIjZAgcfl7p92ldGxad68LJZdL17lhWy',
      `${salt}:${crypto.randomBytes(32).toString('base64')}`,
      ':',
    ]) {
      await expect(verifyPassword('anything', stored), stored).resolves.toBe(false);
    }
  },
);

claim.abuse(
  `${page}#hashing-with-scrypt`,
  'two long passwords that differ only after their first 72 bytes do not match: scrypt reads the whole password',
  async () => {
    const base = 'x'.repeat(80);
    const stored = await hashPassword(`${base}-one`);
    expect(await verifyPassword(`${base}-two`, stored)).toBe(false);
    expect(await verifyPassword(`${base}-one`, stored)).toBe(true);
  },
);

for (const lang of ['ts', 'js'] as const) {
  claim.abuse(
    `${page}#hashing`,
    `PasswordService.hash() refuses a password over 72 bytes (19 emoji, 73 letters) with 400 before bcrypt sees it, and hands 72 bytes on (${lang}; bcrypt is a native build that does not load here, so a stand-in records what reaches it)`,
    async () => {
      const set = samples(page, {
        lang,
        edit: {
          'password.service': [
            ["import * as bcrypt from 'bcrypt';", "import * as bcrypt from './bcrypt';"],
          ],
        },
        files: {
          bcrypt: `
export const received = [];
export function hash(plain, rounds) {
  received.push(plain);
  return Promise.resolve('$2b$' + rounds + '$stand-in');
}
export function compare() {
  return Promise.resolve(false);
}
`,
        },
      });
      const {PasswordService} = set.require('password.service');
      const {received} = set.require<{received: string[]}>('bcrypt');
      const service = new PasswordService();
      const {BadRequestException} = nest('@nestjs/common');
      for (const tooLong of ['\u{1F600}'.repeat(19), 'a'.repeat(73)]) {
        let error: any;
        try {
          await service.hash(tooLong);
        } catch (caught) {
          error = caught;
        }
        expect(error).toBeInstanceOf(BadRequestException);
        expect(error.getResponse()).toEqual({
          statusCode: 400,
          message: 'A password may be at most 72 bytes long',
          error: 'Bad Request',
        });
      }
      expect(await service.hash('\u{1F600}'.repeat(18))).toBe('$2b$12$stand-in');
      expect(received).toEqual(['\u{1F600}'.repeat(18)]);
    },
  );
}
