'use strict';
// require('utfx/register'): from here on, Node's own StringDecoder decodes
// with utfx: require('string_decoder').StringDecoder is utfx's, and the
// decoders Node's modules make themselves (streams' setEncoding, readline,
// child_process pipes with an encoding) give their long utf8, base64 and hex
// chunks to utfx. Results are Node's, bit for bit. See README.md.
require('./index.js')._internal.register();
