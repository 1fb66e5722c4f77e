// The reference solution, published encrypted (loopcraft/site/render.py). Its key is the SHA-256 of the salt and the
// list of every published case's expectation text (what it expects, of every kind: loopcraft/course/cases.py,
// expectation_text), hidden ones included: exactly what a run that passes every case can rebuild, a hidden case's
// from the outcome that matched its digest. So the page can read the solution after such a run, and not before.
// The key a passing run derived is kept with the solved mark (storage.js), so that a challenge solved in another
// browser, its work imported, shows its solution without one more run.

import { expectationText } from "./judge.js";

const fromBase64 = (text) => Uint8Array.from(atob(text), (ch) => ch.charCodeAt(0));
const toHex = (bytes) => Array.from(bytes, (byte) => byte.toString(16).padStart(2, "0")).join("");
const fromHex = (text) => Uint8Array.from(text.match(/../g) ?? [], (pair) => Number.parseInt(pair, 16));

const keyOf = async (material) =>
  new Uint8Array(await crypto.subtle.digest("SHA-256", new TextEncoder().encode(material)));

/**
 * secret: {salt, iv, ciphertext} from the page data; cases: the page data's cases; outcomes: the run's, one a
 * case, in case order. Resolves to {source, key}: the solution's source and the key (hex) that opened it; rejects
 * when the outcomes do not give the key.
 */
export async function unlockSolution(secret, cases, outcomes) {
  const texts = await Promise.all(cases.map((c, i) => expectationText(c.expect, outcomes[i])));
  const key = await keyOf(`${secret.salt}[${texts.join(",")}]`);
  return { source: await decryptUnder(key, secret), key: toHex(key) };
}

/** The solution's source under a key unlockSolution gave (hex); rejects when it is not this solution's. */
export function unlockWithKey(secret, key) {
  if (!/^[0-9a-f]{64}$/.test(key)) return Promise.reject(new Error("not a key"));
  return decryptUnder(fromHex(key), secret);
}

/** Text encrypted by loopcraft/site/render.py `_encrypt` under the SHA-256 of `material`; rejects on a wrong key. */
export async function decrypt(material, secret) {
  return decryptUnder(await keyOf(material), secret);
}

async function decryptUnder(digest, { iv, ciphertext }) {
  const key = await crypto.subtle.importKey("raw", digest, "AES-GCM", false, ["decrypt"]);
  const plain = await crypto.subtle.decrypt({ name: "AES-GCM", iv: fromBase64(iv) }, key, fromBase64(ciphertext));
  return new TextDecoder().decode(plain);
}
