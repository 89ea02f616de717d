// The lazy extension `replay`: session replay's recorder, rrweb's (a chunk of its own; see load.ts and tsup.config.ts).
export { default } from './replay/extension'
