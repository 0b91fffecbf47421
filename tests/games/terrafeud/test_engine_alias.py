"""TerraFeud's engine moved into its game folder; ``workbench.engine`` is the same modules by another name."""

import pickle

import workbench.engine.state as alias_state

import workbench.engine as alias
from workbench.engine import new_game
from workbench.games.terrafeud import engine
from workbench.games.terrafeud.engine import state


def test_the_alias_is_the_engine_itself():
    assert alias_state is state and alias.state is state
    assert alias.GameState is engine.GameState
    st = new_game(seed=2)
    assert isinstance(st, state.GameState)
    assert pickle.loads(pickle.dumps(st.to_dict())) == st.to_dict()
    for name in alias.SUBMODULES:
        assert getattr(alias, name) is getattr(engine, name, None) or getattr(alias, name).__name__.endswith(name)
