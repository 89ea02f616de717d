// The lazy extension `exceptions` (a chunk of its own; see load.ts and tsup.config.ts).
export { default } from '../exceptions/extension'
