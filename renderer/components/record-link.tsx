import { Link } from '../router.tsx';
import { paths } from '../routes.ts';

/** A cited Record's id, which opens the Record: its words whole, its Memories, Forget. */
export function RecordLink({ brainId, id, className }: { brainId: string; id: string; className: string }) {
  return (
    <Link to={paths.record(brainId, id)} className={className} title="Open the Record">
      {id}
    </Link>
  );
}
