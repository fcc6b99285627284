// The cross-engine suite (suite.mjs) in firefox.
import { run } from './suite.mjs';
import * as driver from './drivers/firefox.mjs';

run(driver);
