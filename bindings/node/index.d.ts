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
