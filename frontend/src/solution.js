// The reference solution, published encrypted (loopcraft/render.py). Its key is
// the SHA-256 of the salt and the canonical JSON list of every case's expected
// value, hidden ones included: exactly what a run that passes every case
// returns. So the page can read the solution after such a run, and not before.

const fromBase64 = (text) => Uint8Array.from(atob(text), (ch) => ch.charCodeAt(0));

/**
 * secret: {salt, iv, ciphertext} from the page data; values: the canonical
 * JSON string each case returned, in case order. Resolves to the solution's
 * source; rejects when the values are not the expected ones.
 */
export function unlockSolution(secret, values) {
  return decrypt(`${secret.salt}[${values.join(",")}]`, secret);
}

/** Text encrypted by loopcraft/render.py `_encrypt` under the SHA-256 of `material`; rejects on a wrong key. */
export async function decrypt(material, { iv, ciphertext }) {
  const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(material));
  const key = await crypto.subtle.importKey("raw", digest, "AES-GCM", false, ["decrypt"]);
  const plain = await crypto.subtle.decrypt({ name: "AES-GCM", iv: fromBase64(iv) }, key, fromBase64(ciphertext));
  return new TextDecoder().decode(plain);
}

