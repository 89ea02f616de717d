import type { ChunkLoader } from '../core/client'

/**
 * Loads a lazy extension by name. In the ESM build each is a chunk of its own, which the app's bundler
 * splits off and fetches on first use; the script-tag build uses `load.script.ts` instead.
 */
export const loadChunk: ChunkLoader = async (name) => {
  if (name === 'exceptions') return (await import('./exceptions')).default
  if (name === 'surveys') return (await import('./surveys')).default
  if (name === 'replay') return (await import('./replay')).default
}
