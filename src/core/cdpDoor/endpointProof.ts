/**
 * The child's internal CDP endpoint proves, in every answer, that it is the one the host was told of over stdio:
 * the host sends a fresh nonce with each request, and the endpoint answers with the nonce's HMAC under a key that
 * never travels over TCP. A process that binds the port the endpoint just freed, in the instant before the host
 * hears it close, gets the request but cannot answer as the endpoint, so nothing it says reaches a client.
 */
import { createHmac, randomBytes, timingSafeEqual } from 'crypto';

export const NONCE_HEADER = 'x-playwright-bridge-nonce';
export const PROOF_HEADER = 'x-playwright-bridge-proof';

export function newProofKey(): string {
  return randomBytes(32).toString('base64url');
}

/** One request's challenge: the nonce it sends, and whether an answer's proof (a header's value, or none) meets it. */
export interface ProofChallenge {
  readonly nonce: string;
  metBy(proof: unknown): boolean;
}

export function challengeFor(key: string): ProofChallenge {
  const nonce = randomBytes(18).toString('base64url');
  return { nonce, metBy: proof => proves(key, nonce, proof) };
}

/** The endpoint's answer to a nonce. */
export function proofOf(key: string, nonce: string): string {
  return createHmac('sha256', key).update(nonce).digest('base64url');
}

function proves(key: string, nonce: string, proof: unknown): boolean {
  if (typeof proof !== 'string') return false;
  const expected = Buffer.from(proofOf(key, nonce));
  const given = Buffer.from(proof);
  return given.length === expected.length && timingSafeEqual(given, expected);
}

/** The proof in a raw HTTP response head (a WebSocket's 101), if any. */
export function proofInHead(head: string): string | undefined {
  return new RegExp(`^${PROOF_HEADER}:[ \\t]*([\\w-]+)[ \\t]*$`, 'im').exec(head)?.[1];
}
