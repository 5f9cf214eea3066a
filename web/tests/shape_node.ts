// What web/tests/kernel_shape.test.mjs imports, bundled for node by scripts/web-test.sh.
export { loadCoreInNode, loadThreadsInNode } from '../device/node_core';
export { ASSUMED_UNITS, computeUnits, shapeChooser } from '../src/shape';
