"""What happens to memories after they are written: consolidation decisions (ADD, REINFORCE,
MERGE, SUPERSEDE) and their application, reinforcement, edits and undo, forgetting."""
