"""The contract every game meets and every consumer (session, journal, transcripts, bots,
simulation, kiosk) uses: actions, events, dice prompts, errors and the registry of games."""
