// The lazy extension `surveys` (a chunk of its own; see load.ts and tsup.config.ts).
export { default } from './surveys/extension'
