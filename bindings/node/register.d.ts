// require('utfx/register') / import 'utfx/register': Node's own
// string_decoder (streams' setEncoding, readline, ...) decodes with utfx.
export {};
