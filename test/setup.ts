// Mocha root hooks shared by every test file.
process.env.RUNTIME_LOG_LEVEL ??= 'silent';
