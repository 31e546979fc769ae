"""The board widget in a real browser: headless Chromium (driven by chromedriver through
selenium) renders the widget's own ES module, a person's clicks make a move, and the
opponent's reply appears on the board."""
from __future__ import annotations

import shutil
import tempfile

import pytest

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
CHROMEDRIVER = shutil.which("chromedriver")
pytestmark = [
    pytest.mark.browser,
    pytest.mark.skipif(not (CHROMIUM and CHROMEDRIVER),
                       reason="needs Debian's chromium and chromium-driver (.ci/run installs them)"),
]
FLAGS = ("--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
         "--disable-background-networking", "--disable-component-update", "--disable-sync")


@pytest.fixture(scope="module")
def driver():
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service
    opts = webdriver.ChromeOptions()
    opts.binary_location = CHROMIUM
    for flag in FLAGS:
        opts.add_argument(flag)
    profile = tempfile.mkdtemp(prefix="gameai-chromium-")
    opts.add_argument(f"--user-data-dir={profile}")
    d = webdriver.Chrome(service=Service(CHROMEDRIVER), options=opts)
    yield d
    d.quit()
    shutil.rmtree(profile, ignore_errors=True)


def _open(driver, board):
    from selenium.webdriver.support.ui import WebDriverWait

    from gameai.widgets import serve
    url, server = serve(board)
    driver.get(url)
    wait = WebDriverWait(driver, 30)
    wait.until(lambda d: d.find_elements("css selector", "[data-click]"))
    return wait, server


def _click(driver, point):
    driver.find_element("css selector", f'[data-click="{point}"]').click()


def test_xiangqi_click_piece_targets_light_up_and_the_opponent_replies(driver):
    from gameai.widgets import Board
    board = Board("xiangqi", opponent="alphabeta(depth=2)")
    wait, server = _open(driver, board)
    try:
        _click(driver, "h2")                                   # Red's cannon
        wait.until(lambda d: d.find_elements("css selector", "[data-target]"))
        targets = {e.get_attribute("data-target") for e in driver.find_elements("css selector", "[data-target]")}
        want = {m[2:] for m in (board.state.move_str(x) for x in board.state.legal_moves()) if m[:2] == "h2"}
        assert targets == want
        _click(driver, "e2")
        # the search pushes and pops moves on board.state while it runs: read the synced view,
        # which changes only once the reply has been played
        wait.until(lambda d: len(board.view["moves"]) == 2)
        reply = board.view["moves"][1]
        # the reply is drawn: a black piece on its target square, marked as the last move
        wait.until(lambda d: d.find_elements("css selector", f'[data-last="to"][data-pt="{reply[2:]}"]'))
        piece = driver.find_element("css selector", f'g.gb-piece[data-pt="{reply[2:]}"]')
        assert piece.get_attribute("data-side") == "1"
        assert not driver.find_elements("css selector", f'g.gb-piece[data-pt="{reply[:2]}"]')
        assert driver.find_element("css selector", 'g.gb-piece[data-pt="e2"]').get_attribute("data-side") == "0"
        nodes = driver.find_element("css selector", 'td[data-stat="nodes"]').text
        assert nodes.replace(",", "") == str(board.stats["nodes"])
    finally:
        server.shutdown()


def test_gomoku_click_a_point_and_the_opponent_replies(driver):
    from gameai.widgets import Board
    board = Board("gomoku", opponent="alphabeta(depth=1)")
    wait, server = _open(driver, board)
    try:
        _click(driver, "h8")
        wait.until(lambda d: len(board.view["moves"]) == 2)
        reply = board.view["moves"][1]
        wait.until(lambda d: d.find_elements("css selector", f'g.gb-piece[data-pt="{reply}"][data-side="1"]'))
        assert driver.find_element("css selector", 'g.gb-piece[data-pt="h8"]').get_attribute("data-side") == "0"
    finally:
        server.shutdown()


@pytest.mark.slow
def test_in_jupyterlab_itself(driver, tmp_path):
    """The same clicks in a real JupyterLab (anywidget's own front end, a real kernel).
    Slow (JupyterLab starts in about 20 s): run with -m slow; needs the dev extra."""
    pytest.importorskip("jupyterlab", reason="JupyterLab is in the dev extra")
    import os
    import socket
    import subprocess
    import sys
    import time
    from pathlib import Path

    import nbformat
    nb = nbformat.v4.new_notebook()
    nb.cells = [nbformat.v4.new_code_cell(
        "from gameai.widgets import Board\nb = Board('xiangqi', opponent='alphabeta(depth=2)')\nb")]
    nb.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3", "language": "python"}
    nbformat.write(nb, str(tmp_path / "w.ipynb"))
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    env = dict(os.environ, PYTHONPATH=str(Path(__file__).resolve().parents[2]))
    lab = subprocess.Popen([sys.executable, "-m", "jupyterlab", "--allow-root", "--no-browser",
                            "--ip=127.0.0.1", f"--port={port}", "--IdentityProvider.token=",
                            "--ServerApp.password=", "--LabApp.expose_app_in_browser=True",
                            f"--ServerApp.root_dir={tmp_path}"], env=env,
                           stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        from selenium.webdriver.support.ui import WebDriverWait
        wait = WebDriverWait(driver, 120)
        for _ in range(60):
            try:
                driver.get(f"http://127.0.0.1:{port}/lab/tree/w.ipynb")
                break
            except Exception:
                time.sleep(1)
        wait.until(lambda d: d.execute_script(
            "return !!(window.jupyterapp && document.querySelector('.jp-Notebook'))"))
        time.sleep(3)
        driver.execute_script("window.jupyterapp.commands.execute('notebook:run-all-cells')")
        wait.until(lambda d: d.execute_script(
            "return document.querySelectorAll('.gameai-board [data-click]').length"))
        click = "document.querySelector('.gameai-board [data-click=\"%s\"]').dispatchEvent(" \
                "new MouseEvent('click', {bubbles: true}))"
        driver.execute_script(click % "h2")
        wait.until(lambda d: d.execute_script(
            "return document.querySelectorAll('.gameai-board [data-target=\"e2\"]').length"))
        driver.execute_script(click % "e2")
        wait.until(lambda d: len(d.execute_script(
            "return document.querySelector('.gameai-board .gb-moves').textContent").split()) == 2)
        reply = driver.execute_script("return document.querySelector('.gameai-board .gb-moves').textContent").split()[1]
        assert driver.execute_script(
            f"return document.querySelector('.gameai-board g.gb-piece[data-pt=\"{reply[2:]}\"]').dataset.side") == "1"
    finally:
        lab.terminate()
        lab.wait(timeout=30)
