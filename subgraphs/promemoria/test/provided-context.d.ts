// The `serverUrls` value the vitest global setup provides is typed by a module augmentation in the testkit's
// global setup file; pull it into this package's type check (the integration tests use the testkit).
/// <reference path="../../../packages/testkit/src/global-setup.ts" />
