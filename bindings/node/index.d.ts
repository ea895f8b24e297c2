// utfx for Node.js: every function returns exactly what the Node builtin
// named beside it returns, errors included (see README.md).

/// <reference types="node" />

import type { StringDecoder as NodeStringDecoder } from 'string_decoder';

/** A drop-in for `require('string_decoder').StringDecoder`: the same
 * constructor, encodings, `write`, `end`, `text`, legacy `lastChar` /
 * `lastNeed` / `lastTotal`, results and errors. */
export declare const StringDecoder: {
  new (encoding?: BufferEncoding): NodeStringDecoder;
  (encoding?: BufferEncoding): never;
  prototype: NodeStringDecoder;
};
export type StringDecoder = NodeStringDecoder;

/** `buf.toString('utf8', start, end)`. */
export declare function decode(buf: Buffer, start?: number, end?: number): string;

/** `buf.write(string, offset, length, 'utf8')`: the bytes written, whole
 * characters only. */
export declare function write(buf: Buffer, string: string, offset?: number, length?: number): number;

/** `Buffer.from(value, 'utf8')`: for a string, its UTF-8 bytes in a new
 * Buffer (lone surrogates as EF BF BD); anything else as Buffer.from. */
export declare function encode(value: string): Buffer;
export declare function encode(value: ArrayBuffer | SharedArrayBuffer | Uint8Array | ReadonlyArray<number>): Buffer;

/** `new TextEncoder().encodeInto(string, u8)`. */
export declare function encodeInto(string: string, u8: Uint8Array): { read: number; written: number };

/** `Buffer.byteLength(string, 'utf8')`. */
export declare function byteLength(string: string): number;

/** The kernel set in use: "avx512", "avx2", "neon" or "scalar". */
export declare function implementation(): string;
/** The kernel sets this CPU runs, best first. */
export declare function implementations(): string[];
/** Selects a kernel set (tests, benchmarks); true if it is now in use. The
 * environment variable UTFX_IMPL does the same at load time. */
export declare function setImplementation(name: string): boolean;

// Base64 (base64.js): TC39's Uint8Array base64 methods (ES2026) as functions,
// and Node's Buffer base64 / base64url.

export interface ToBase64Options {
  alphabet?: 'base64' | 'base64url';
  omitPadding?: boolean;
}
export interface FromBase64Options {
  alphabet?: 'base64' | 'base64url';
  lastChunkHandling?: 'loose' | 'strict' | 'stop-before-partial';
}

/** `bytes.toBase64(options)` (Uint8Array.prototype.toBase64). TypeError for
 * a non-Uint8Array, bad options or a detached buffer. */
export declare function toBase64(bytes: Uint8Array, options?: ToBase64Options): string;
/** `Uint8Array.fromBase64(string, options)`: a new Uint8Array; SyntaxError
 * for text that is not base64 under the options, TypeError for bad arguments. */
export declare function fromBase64(string: string, options?: FromBase64Options): Uint8Array;
/** `into.setFromBase64(string, options)`: decodes into `into` (whole groups
 * while they fit) and returns the characters read and bytes written; on a
 * SyntaxError the bytes before the error are written. */
export declare function setFromBase64(into: Uint8Array, string: string,
  options?: FromBase64Options): { read: number; written: number };
/** `buf.toString('base64')` or, with 'base64url', `buf.toString('base64url')`. */
export declare function base64Encode(buf: ArrayBufferView, encoding?: 'base64' | 'base64url'): string;
/** `Buffer.from(string, 'base64')` / `'base64url'`: Node's lenient rules
 * (other characters skipped, the first '=' ends the text). */
export declare function base64Decode(string: string, encoding?: 'base64' | 'base64url'): Buffer;
/** A drop-in for the global `TextDecoder` (WHATWG Encoding): utf-8, utf-16le
 * and utf-16be (every label) decoded by utfx, with `fatal`, `ignoreBOM` and
 * `decode(input, { stream })`; any other label returns Node's own
 * `TextDecoder`. Results and errors are the global's (see README.md). */
export declare const TextDecoder: typeof globalThis.TextDecoder;
export type TextDecoder = globalThis.TextDecoder;

/** A drop-in for the global `TextEncoder`: `encode` (a Uint8Array of its own)
 * and `encodeInto` by utfx; an instance is also a global `TextEncoder`. */
export declare const TextEncoder: typeof globalThis.TextEncoder;
export type TextEncoder = globalThis.TextEncoder;
