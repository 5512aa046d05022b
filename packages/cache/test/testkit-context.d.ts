// `serverUrls()` of @coperto/testkit reads vitest's `inject('serverUrls')`, whose type is declared by the
// module augmentation in testkit's global-setup.ts. That file is not reachable from the testkit entry point,
// so a per-package `tsc -p` would not see it; this reference brings the one declaration in (no copy of it).
/// <reference path="../../testkit/src/global-setup.ts" />
