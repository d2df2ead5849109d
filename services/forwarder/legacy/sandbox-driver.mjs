/**
 * The code that runs INSIDE the QuickJS context for one entry, before any legacy code. Evaluating it
 * yields `drive(source, webhookJson, dataJson)`: it parses the JSON strings (the only data that ever
 * enters), evaluates the legacy function expression once, and calls it once per registration.
 *
 * It keeps its own references to the built-ins it needs, taken before the legacy source runs, so a
 * function that rewrites `JSON`, `Reflect` or prototypes cannot change how the driver reads data or
 * reports results. Results are one string the host reads without running sandbox code:
 *   'R' + one '1'/'0' per registration (in order)   — '1' only when the call returned exactly `true`;
 *   'I' + reason                                     — the source is not a valid function expression.
 * A limit hit (memory, stack) ends the whole entry: it is thrown as the primitive tag 'memory' or
 * 'stack' (throwing a constant string allocates nothing, so it works when memory is exhausted). The
 * deadline interrupt is uncatchable in QuickJS and leaves the entry on its own.
 */
export const SANDBOX_DRIVER = `(function () {
  'use strict';
  var parse = JSON.parse;
  var keys = Object.keys;
  var freeze = Object.freeze;
  var apply = Reflect.apply;
  var evaluate = eval; // indirect eval: global scope, and the legacy source keeps its own (sloppy) mode
  var EngineInternalError = InternalError;
  var EngineSyntaxError = SyntaxError;

  // QuickJS reports its limits as InternalError (or SyntaxError while parsing) with these messages, and
  // throws null when memory is so short that not even the error object could be made.
  function limitTag(error) {
    if (error === null) return 'memory';
    if (error instanceof EngineInternalError || error instanceof EngineSyntaxError) {
      var message = error.message;
      if (message === 'out of memory') return 'memory';
      if (message === 'stack overflow') return 'stack';
    }
    return '';
  }

  // One call must not be able to change what the next registration's call sees.
  function deepFreeze(value) {
    if (typeof value === 'object' && value !== null) {
      freeze(value);
      var names = keys(value);
      for (var i = 0; i < names.length; i++) deepFreeze(value[names[i]]);
    }
    return value;
  }

  function run(source, webhookJson, dataJson) {
    var webhook = deepFreeze(parse(webhookJson));
    var data = parse(dataJson);
    var fn;
    try {
      fn = evaluate('(' + source + '\\n)');
    } catch (error) {
      if (limitTag(error)) throw error;
      return error instanceof EngineSyntaxError
        ? 'Isyntax error: ' + error.message
        : 'Ievaluating the function expression threw';
    }
    if (typeof fn !== 'function') return 'Ithe source does not evaluate to a function';
    var flags = '';
    for (var i = 0; i < data.length; i++) {
      var result = false;
      try {
        result = apply(fn, undefined, [data[i], webhook]);
      } catch (error) {
        // A throw for one registration is a "no" for that registration only; limits end the entry.
        if (limitTag(error)) throw error;
      }
      flags += result === true ? '1' : '0';
    }
    return 'R' + flags;
  }

  return function drive(source, webhookJson, dataJson) {
    try {
      return run(source, webhookJson, dataJson);
    } catch (error) {
      throw limitTag(error) || 'crashed';
    }
  };
})()`;
