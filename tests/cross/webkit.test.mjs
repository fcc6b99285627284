// The cross-engine suite (suite.mjs) in webkit.
import { run } from './suite.mjs';
import * as driver from './drivers/webkit.mjs';

run(driver);
