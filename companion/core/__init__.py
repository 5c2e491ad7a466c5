"""The contract every game meets and every consumer (session, journal, transcripts, bots,
simulation, kiosk) uses: the Game protocol and Outcome (``game``), actions, events, dice
prompts, errors, the words transcripts share (``words``) and the registry of games."""
