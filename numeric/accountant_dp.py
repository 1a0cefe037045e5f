"""``CertifiedAccountant``: a ``dp_accounting.PrivacyAccountant`` on the certified engine (issue #27, item 1).

Imported through ``numeric.accountants.CertifiedAccountant`` (this module needs the ``dp-accounting``
extra).  Events are read by ``numeric.dp_events`` (the mapping table is its docstring); the bracket and
the argument that it is certified are ``numeric.pld``'s.  Supported relations: ADD_OR_REMOVE_ONE
(default) and REPLACE_ONE; REPLACE_SPECIAL events are refused.
"""

from __future__ import annotations

from dp_accounting import dp_event, privacy_accountant

from . import dp_events as E
from .accountant_ledger import Bracket, Ledger, _safe_end

NeighboringRelation = privacy_accountant.NeighboringRelation


class CertifiedAccountant(privacy_accountant.PrivacyAccountant):
    """dp_accounting's accountant interface; ``get_epsilon``/``get_delta`` are the certified upper ends."""

    def __init__(self, neighboring_relation: NeighboringRelation = NeighboringRelation.ADD_OR_REMOVE_ONE):
        super().__init__(neighboring_relation)
        self._book = Ledger()

    def _maybe_compose(self, event: dp_event.DpEvent, count: int, do_compose: bool):
        try:
            ledger = E.read_event(event, self.neighboring_relation.name)
        except E.Refused as refused:
            bad = refused.event if isinstance(refused.event, dp_event.DpEvent) else event
            return self.CompositionErrorDetails(invalid_event=bad, error_message=refused.reason)
        if do_compose:
            self._book.add(ledger, count)
        return None

    def get_epsilon(self, target_delta: float) -> float:
        """The upper end of the certified bracket of eps at ``target_delta`` (a warning if not certified)."""
        return _safe_end(self._book.eps_bracket(target_delta))

    def get_delta(self, target_epsilon: float) -> float:
        """The upper end of the certified bracket of delta at ``target_epsilon``."""
        return _safe_end(self._book.delta_bracket(target_epsilon))

    def epsilon_bracket(self, target_delta: float) -> Bracket:
        """The whole bracket: ``lower <= eps(target_delta) <= upper``, with ``certified`` and ``reason``."""
        return self._book.eps_bracket(target_delta)

    def delta_bracket(self, target_epsilon: float) -> Bracket:
        """The whole bracket of delta at ``target_epsilon``."""
        return self._book.delta_bracket(target_epsilon)
