import { EventEmitter } from 'node:events';

/** In-process notifications of writes that invalidate cached state (flag definitions per project). */
export class Changes extends EventEmitter<{ flags: [projectId: number] }> {
  flagsChanged(projectId: number) {
    this.emit('flags', projectId);
  }
}
