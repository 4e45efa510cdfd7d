// Loaded by index.html before the app's modules. The console's content security policy allows no
// eval: when it builds an object schema, Zod probes `new Function('')` for its compiled fast path,
// which the browser refuses and reports as a violation. Zod reads this global configuration at
// load time; jitless, it uses its interpreted path from the start (the same results).
globalThis.__zod_globalConfig = Object.assign(globalThis.__zod_globalConfig || {}, { jitless: true });
