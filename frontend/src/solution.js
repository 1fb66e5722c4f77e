// The reference solution, published encrypted (loopcraft/render.py). Its key is the SHA-256 of the salt and the
// list of every published case's expectation text (what it expects, of every kind: loopcraft/cases.py,
// expectation_text), hidden ones included: exactly what a run that passes every case can rebuild, a hidden case's
// from the outcome that matched its digest. So the page can read the solution after such a run, and not before.

import { expectationText } from "./judge.js";

const fromBase64 = (text) => Uint8Array.from(atob(text), (ch) => ch.charCodeAt(0));

/**
 * secret: {salt, iv, ciphertext} from the page data; cases: the page data's cases; outcomes: the run's, one a
 * case, in case order. Resolves to the solution's source; rejects when the outcomes do not give the key.
 */
export async function unlockSolution(secret, cases, outcomes) {
  const texts = await Promise.all(cases.map((c, i) => expectationText(c.expect, outcomes[i])));
  return decrypt(`${secret.salt}[${texts.join(",")}]`, secret);
}

/** Text encrypted by loopcraft/render.py `_encrypt` under the SHA-256 of `material`; rejects on a wrong key. */
export async function decrypt(material, { iv, ciphertext }) {
  const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(material));
  const key = await crypto.subtle.importKey("raw", digest, "AES-GCM", false, ["decrypt"]);
  const plain = await crypto.subtle.decrypt({ name: "AES-GCM", iv: fromBase64(iv) }, key, fromBase64(ciphertext));
  return new TextDecoder().decode(plain);
}
