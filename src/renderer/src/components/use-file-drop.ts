import { useState, type DragEvent } from 'react';

/**
 * A drop zone for files: `over` while files are dragged over it (other drags are left alone), and
 * `handlers(onFiles)` for the zone's element, handing the dropped files to `onFiles`.
 * `stopPropagation`: a zone inside another drop target (a shot card's) keeps the drop to itself.
 */
export function useFileDrop(options: { stopPropagation?: boolean } = {}): {
  over: boolean;
  handlers(onFiles: (files: File[]) => void): {
    onDragOver(e: DragEvent): void;
    onDragLeave(): void;
    onDrop(e: DragEvent): void;
  };
} {
  const [over, setOver] = useState(false);
  return {
    over,
    handlers: (onFiles) => ({
      onDragOver(e) {
        if (!e.dataTransfer.types.includes('Files')) return;
        e.preventDefault();
        setOver(true);
      },
      onDragLeave: () => setOver(false),
      onDrop(e) {
        setOver(false);
        if (e.dataTransfer.files.length === 0) return;
        e.preventDefault();
        if (options.stopPropagation) e.stopPropagation();
        onFiles([...e.dataTransfer.files]);
      },
    }),
  };
}
