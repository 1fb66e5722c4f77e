// The thin layer under a reducer that gives effects (session-state.js, worker-state.js): it holds the state, feeds
// each event to next(state, event) and carries out the effects it gives, in order, with `perform[effect.type]`.
// `stamp(event, state)` adds what the event is read with (the time, a shared buffer's value) as it is handled.
//
// An event dispatched while one is being handled (an effect that calls back at once) waits for that one's effects
// to be done: events are handled one at a time, in the order they came. An effect that throws (or an event the reducer
// refuses) stops none of the others, and none of the events waiting: the first error is thrown once they are all done.
export function carryOut(next, initial, perform, stamp = (event) => event) {
  let state = initial;
  const waiting = [];
  function dispatch(event) {
    waiting.push(event);
    if (waiting.length > 1) return; // the event being handled comes first
    let thrown = null;
    while (waiting.length) {
      try {
        const { state: after, effects } = next(state, stamp(waiting[0], state));
        state = after;
        for (const effect of effects) {
          try {
            perform[effect.type](effect);
          } catch (error) {
            thrown ??= { error };
          }
        }
      } catch (error) {
        thrown ??= { error }; // an event the reducer refused: the state stays as it was
      }
      waiting.shift();
    }
    if (thrown) throw thrown.error;
  }
  return { dispatch, state: () => state };
}
