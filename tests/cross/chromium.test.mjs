// The cross-engine suite (suite.mjs) in chromium.
import { run } from './suite.mjs';
import * as driver from './drivers/chromium.mjs';

run(driver);
