// Run by test/integration/test-runner.test.ts in a group (scripts/test-groups.mjs): a file that throws
// while it loads, before the group's last file.
export {};
throw new Error('this file cannot load');
