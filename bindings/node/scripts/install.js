'use strict';
// npm's install step: nothing to do where a prebuilt binary for this
// platform loads; elsewhere the addon is built from source (scripts/build.js).

const path = require('path');

function prebuiltLoads() {
  const file = path.join(__dirname, '..', 'prebuilds', `${process.platform}-${process.arch}`,
    'utfx.node');
  try {
    require(file);
    return true;
  } catch {
    return false;
  }
}

if (!prebuiltLoads()) {
  try {
    const out = require('./build').build();
    console.log(`utfx: no prebuilt binary loads on ${process.platform}-${process.arch}; built ${out}`);
  } catch (err) {
    console.error(`utfx: no prebuilt binary loads on ${process.platform}-${process.arch}, and the ` +
      `build from source failed: ${err.message}`);
    process.exit(1);
  }
}
