import { register } from 'node:module';

register('./loaded-modules-hooks.mjs', import.meta.url);
